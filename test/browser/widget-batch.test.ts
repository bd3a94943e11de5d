import type { Browser } from 'playwright-core';
import { handler as batch } from '../../functions/scoring/batch-handler';
import { type BatchResponse, BatchResponseSchema } from '../../functions/scoring/batch-schemas';
import { sampleTimeseriesRequest } from '../../functions/demo/sample-person';
import { ensureWidgetBuilt } from '../../widget/build';
import { apiGatewayEvent, lambdaContext } from '../unit/http/api-gateway-event';
import { launchChromium } from './helpers/chromium';
import { type PageServer, startPageServer } from './helpers/page-server';
import { openWidgetPage, shadowTexts } from './helpers/widget-page';

let browser: Browser;
let server: PageServer;
let answer: BatchResponse;

/** A real POST /health-score/batch answer: the demo person at their last check-up, and an invalid person. */
async function batchAnswer(): Promise<BatchResponse> {
  const sample = sampleTimeseriesRequest(1);
  const [event] = sample.health_events;
  const persons = [
    { uid_ext: 'demo-person', date_of_birth: sample.date_of_birth, score_date: event!.health_event_date, predictors: event!.predictors },
    { uid_ext: 'no-sex', date_of_birth: sample.date_of_birth, score_date: event!.health_event_date, predictors: event!.predictors.filter((p) => p.observation_code !== '76689-9') },
  ];
  const response = await batch(apiGatewayEvent({ apiKeyId: 'key-1', body: JSON.stringify({ scoring_event_metadata: sample.scoring_event_metadata, persons }) }), lambdaContext);
  return BatchResponseSchema.parse(JSON.parse(response.body));
}

beforeAll(async () => {
  [browser, server, answer] = await Promise.all([launchChromium(), startPageServer(), batchAnswer(), ensureWidgetBuilt()]).then(
    ([b, s, a]) => [b, s, a] as const,
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('HaleWidget.fromBatchResult with a real batch answer', () => {
  it('draws a scored element as it came from the API: one card per domain, no trend charts', async () => {
    const [element] = answer.batch_results;
    expect(element!.status).toBe('scored');
    const { page } = await openWidgetPage(browser, server.origin);
    await page.evaluate((el) => {
      window.haleHandle = window.HaleWidget.render('#report', { scoring: window.HaleWidget.fromBatchResult(el) });
    }, element!);
    expect(await shadowTexts(page, '.error')).toEqual([]);
    const cards = await shadowTexts(page, '[data-domain]');
    expect(cards).toHaveLength(element!.disease_scores.length);
    for (const [i, score] of element!.disease_scores.entries()) expect(cards[i]).toContain(score.disease_name);
    expect(await shadowTexts(page, 'canvas')).toHaveLength(0);
    const [latest] = await shadowTexts(page, 'header .latest');
    expect(latest).toContain(`age ${Math.round(element!.scoring_event_age! * 10) / 10}`);
    expect(await page.evaluate(() => window.hostErrors)).toEqual([]);
    await page.close();
  });

  it('shows an invalid element as an inline message instead of cards', async () => {
    const invalid = answer.batch_results[1]!;
    expect(invalid.status).toBe('invalid');
    const { page } = await openWidgetPage(browser, server.origin);
    await page.evaluate((el) => {
      window.haleHandle = window.HaleWidget.render('#report', { scoring: window.HaleWidget.fromBatchResult(el) });
    }, invalid);
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(0);
    expect((await shadowTexts(page, '.error')).join(' ')).toMatch(/error response/);
    expect(await page.evaluate(() => window.hostErrors)).toEqual([]);
    await page.close();
  });
});
