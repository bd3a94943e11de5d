import fc from 'fast-check';

// A property that fails is shrunk synchronously, and jest's timeout cannot stop synchronous code: a
// failure whose shrinking takes minutes looks like a hung worker until CI's limit. After 50 s (inside
// jest's 60-s test timeout) fast-check stops, between runs or shrink steps, and reports what it has:
// the failure found so far with its seed and path, or, with no failure yet, a pass on the runs done (so
// a slow, busy machine is no failure). A test given a longer timeout gives its property a longer limit.
fc.configureGlobal({ interruptAfterTimeLimit: 50_000 });
