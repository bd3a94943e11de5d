// One Lambda execution environment of the local runtime's bundles mode (lambda-environments.ts), run
// as a worker thread: it imports one function's bundle as Lambda's Node.js runtime does at init, then
// runs one invocation at a time. Plain JavaScript: it runs outside tsx and jest, like the bundle.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

/** Lambda's error report: the error's name as errorType, its message, its stack as trace lines. */
function report(error, errorType) {
  if (error instanceof Error) {
    return { errorType: errorType ?? error.name, errorMessage: error.message, trace: (error.stack ?? '').split('\n') };
  }
  return { errorType: errorType ?? 'Error', errorMessage: String(error), trace: [] };
}

let handler;
try {
  ({ handler } = await import(pathToFileURL(workerData.entry).href));
  if (typeof handler !== 'function') {
    parentPort.postMessage({ type: 'init-failed', error: { errorType: 'Runtime.HandlerNotFound', errorMessage: 'index.handler is undefined or not exported', trace: [] } });
  } else {
    parentPort.postMessage({ type: 'ready' });
  }
} catch (error) {
  // A bundle that cannot load: a module it left out (Lambda's Runtime.ImportModuleError), or code that
  // throws at init, e.g. an ESM/CommonJS mix-up.
  const missing = error instanceof Error && error.code === 'ERR_MODULE_NOT_FOUND';
  parentPort.postMessage({ type: 'init-failed', error: report(error, missing ? 'Runtime.ImportModuleError' : undefined) });
}

parentPort.on('message', async ({ event, context, timeoutMs }) => {
  // The event arrives as Lambda passes it: JSON.
  const deadline = Date.now() + timeoutMs;
  const lambdaContext = {
    ...context,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const result = await handler(JSON.parse(event), lambdaContext);
    // Lambda serialises the result as JSON (undefined becomes null).
    parentPort.postMessage({ type: 'result', payload: JSON.stringify(result) ?? 'null' });
  } catch (error) {
    parentPort.postMessage({ type: 'error', error: report(error) });
  }
});
