import { formatBanner } from '../../../local/banner';

const facts = {
  baseUrl: 'http://127.0.0.1:3000',
  apiKey: 'hale_dev_key',
  keySource: 'generated' as const,
  otherKeyCount: 0,
  dataDir: '/tmp/hale-data',
  persistent: true,
  readyMs: 512,
};

describe('the npm start banner', () => {
  it('sends every example to this machine only: the API and the README receiver on loopback', () => {
    const banner = formatBanner({ ...facts, privateTargets: true });
    const urls = banner.match(/https?:\/\/[^\s'"]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(banner).toContain('"callback_url":"http://127.0.0.1:4000/hale-report"');
    expect(banner).toContain('npx tsx scripts/report-receiver.ts');
    expect(banner).not.toContain('HALE_ALLOW_PRIVATE_TARGETS=1 npm start');
  });

  it('says how to let Hale call the receiver when it may not', () => {
    expect(formatBanner({ ...facts, privateTargets: false })).toContain('HALE_ALLOW_PRIVATE_TARGETS=1 npm start');
  });
});
