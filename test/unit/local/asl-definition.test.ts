import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareDefinition, runScaledWait } from '../../../local/asl-definition';

const dir = mkdtempSync(path.join(tmpdir(), 'hale-asl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function aslWithWait(secondsPath: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.asl.json`);
  const machine = { StartAt: 'Backoff', States: { Backoff: { Type: 'Wait', SecondsPath: secondsPath, Next: 'Done' }, Done: { Type: 'Succeed' } } };
  writeFileSync(file, JSON.stringify(machine));
  return file;
}

describe('a Wait whose seconds come from the state, locally', () => {
  it('becomes a stand-in task that sleeps the scaled seconds and passes its input on', async () => {
    const prepared = await prepareDefinition(aslWithWait('$.delivery.retryInSeconds'), {}, 0.001);
    expect(prepared.definition.States.Backoff).toMatchObject({ Type: 'Task', Next: 'Done' });
    expect(prepared.scaledWaits).toEqual([{ stateName: 'Backoff', secondsPath: '$.delivery.retryInSeconds', timeScale: 0.001 }]);
    const input = { jobId: 'j', delivery: { retryInSeconds: 400 } };
    const started = performance.now();
    await expect(runScaledWait(prepared.scaledWaits[0]!, input)).resolves.toBe(input);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('fails like Step Functions when the path holds no number, and refuses paths it cannot read', async () => {
    const prepared = await prepareDefinition(aslWithWait('$.delivery.retryInSeconds'), {}, 0.5);
    await expect(runScaledWait(prepared.scaledWaits[0]!, { delivery: {} })).rejects.toMatchObject({ name: 'States.Runtime' });
    await expect(prepareDefinition(aslWithWait('$.deliveries[0].wait'), {}, 0.5)).rejects.toThrow(/not a \$\.a\.b path/);
  });

  it('stays a Wait when nothing is scaled', async () => {
    const prepared = await prepareDefinition(aslWithWait('$.delivery.retryInSeconds'), {}, 1);
    expect(prepared.definition.States.Backoff).toMatchObject({ Type: 'Wait', SecondsPath: '$.delivery.retryInSeconds' });
    expect(prepared.scaledWaits).toEqual([]);
  });
});

describe('a Distributed Map, locally', () => {
  it('stands in as a Task that only the execution’s TimeoutSeconds bounds (the interpreter’s 60 s Task default cut long Map Runs)', async () => {
    const file = path.resolve(__dirname, '../../../statemachines/bulk-scoring.asl.json');
    const text = readFileSync(file, 'utf8');
    const placeholders = Object.fromEntries([...text.matchAll(/\$\{(\w+)\}/g)].map(([, name]) => [name!, `arn:aws:lambda:us-east-1:000000000000:function:${name}`]));
    const prepared = await prepareDefinition(file, placeholders, 1);
    const executionTimeout = (JSON.parse(text) as { TimeoutSeconds: number }).TimeoutSeconds;
    expect(prepared.maps.map((map) => map.stateName)).toEqual(['ScoreJsonl', 'ScoreCsv', 'AssembleResults']);
    for (const map of prepared.maps) {
      const standIn = prepared.definition.States[map.stateName] as { Type: string; TimeoutSeconds?: number };
      expect(standIn.Type).toBe('Task');
      expect(standIn.TimeoutSeconds).toBeGreaterThanOrEqual(executionTimeout);
      // A Node timer longer than 2^31 - 1 ms fires at once.
      expect(standIn.TimeoutSeconds! * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
    }
  });
});
