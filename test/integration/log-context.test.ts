import type * as InvokeStoreModule from '../../local/invoke-store';
import type * as InvokerModule from '../../local/lambda-invoker';
import type * as RuntimeLogModule from '../../local/runtime-log';

/**
 * Several functions share the local runtime's process and its one Powertools logger; each log line
 * must still name the function (and carry the keys) of the invocation that wrote it.
 */
describe('log lines of concurrent invocations in one process', () => {
  const lines: Record<string, unknown>[] = [];
  const saved = { level: process.env.POWERTOOLS_LOG_LEVEL };
  let modules: { store: typeof InvokeStoreModule; invoker: typeof InvokerModule; runtimeLog: typeof RuntimeLogModule };
  let write: jest.SpyInstance;

  beforeAll(() => {
    // The shared logger reads its level when it is built: build a fresh one that writes INFO lines.
    process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
    jest.resetModules();
    modules = { store: require('../../local/invoke-store'), invoker: require('../../local/lambda-invoker'), runtimeLog: require('../../local/runtime-log') };
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      const text = chunk.toString();
      if (text.includes('fixture ')) lines.push(JSON.parse(text) as Record<string, unknown>);
      return true;
    });
  });
  afterAll(() => {
    write.mockRestore();
    process.env.POWERTOOLS_LOG_LEVEL = saved.level;
    delete process.env[modules.store.MAX_CONCURRENCY_SETTING];
  });

  it('name their own function and carry only their own keys', async () => {
    // As the local runtime does: the store first, then the setting that makes Powertools use it.
    const installed = modules.store.installInvokeStore();
    process.env[modules.store.MAX_CONCURRENCY_SETTING] = '64';
    try {
      const invoker = new modules.invoker.LambdaInvoker(modules.runtimeLog.runtimeLog(true), installed.store);
      const fn = (id: string) => modules.invoker.withDefaults({ id, handler: 'test/fixtures/workers/log-twice.ts' }, { memoryMb: 128, timeoutSeconds: 10 });
      const labels = ['A', 'B', 'C', 'D', 'E', 'F'];
      // Later starters finish first, so every "after" line is written while others are mid-flight.
      await Promise.all(labels.map((label, i) => invoker.invoke(fn(`LogProbe${label}`), { label, waitMs: 60 - i * 10 })));
    } finally {
      installed.uninstall();
    }

    expect(lines).toHaveLength(12);
    for (const line of lines) {
      expect({ label: line.label, function_name: line.function_name }).toEqual({ label: line.label, function_name: `hale-LogProbe${line.label as string}` });
    }
    expect(new Set(lines.map((line) => line.function_request_id)).size).toBe(6);
  });
});
