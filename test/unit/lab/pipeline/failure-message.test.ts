import { failureMessage } from '../../../../functions/lab/steps/finish';

describe('the message of a failed job', () => {
  it("is the step's own message when it failed on purpose (Lambda's JSON cause)", () => {
    const cause = JSON.stringify({ errorType: 'PipelineFailure', errorMessage: 'The PDF has no text layer; scanned documents are not supported yet', trace: [] });
    expect(failureMessage({ Error: 'PipelineFailure', Cause: cause })).toBe('The PDF has no text layer; scanned documents are not supported yet');
  });

  it('is generic for anything else, whose cause may hold internals', () => {
    const cause = JSON.stringify({ errorType: 'TypeError', errorMessage: "Cannot read properties of undefined (reading 'items') at /var/task/index.mjs:1:2", trace: [] });
    expect(failureMessage({ Error: 'TypeError', Cause: cause })).toBe('The document could not be processed because of an internal error');
    expect(failureMessage({ Error: 'States.Timeout' })).toBe('The document could not be processed because of an internal error');
    expect(failureMessage(undefined)).toBe('The document could not be processed because of an internal error');
  });
});
