import { randomBytes } from 'node:crypto';
import { dateOfBirthDigest, parsePrintedDate, verifyDateOfBirth } from '../../../../functions/lab/phi/date-of-birth';

const secret = randomBytes(32).toString('base64');
const jobId = '5d1c2b8e-8f61-4bd3-9a57-0d7a7e1f3c21';

describe('date-of-birth verification without keeping the date', () => {
  it('reads the date formats printed on US reports', () => {
    expect(parsePrintedDate('04/17/1962')).toBe('1962-04-17');
    expect(parsePrintedDate('1962-04-17')).toBe('1962-04-17');
    expect(parsePrintedDate('Apr 17, 1962')).toBe('1962-04-17');
    expect(parsePrintedDate('17 April 1962')).toBe('1962-04-17');
    expect(parsePrintedDate('02/30/1962')).toBeUndefined();
  });

  it('matches the printed date against the digest of the given one', () => {
    const digest = dateOfBirthDigest('1962-04-17', jobId, secret);
    expect(digest).not.toContain('1962');
    expect(verifyDateOfBirth(['04/17/1962'], digest, jobId, secret)).toEqual({ dobFound: true, dobMatches: true });
    expect(verifyDateOfBirth(['04/18/1962'], digest, jobId, secret)).toEqual({ dobFound: true, dobMatches: false });
  });

  it('says null when either side is missing', () => {
    expect(verifyDateOfBirth([], dateOfBirthDigest('1962-04-17', jobId, secret), jobId, secret)).toEqual({ dobFound: false, dobMatches: null });
    expect(verifyDateOfBirth(['04/17/1962'], undefined, jobId, undefined)).toEqual({ dobFound: true, dobMatches: null });
  });

  it('binds the digest to the job and the key: it cannot be compared across jobs or tried without the key', () => {
    const digest = dateOfBirthDigest('1962-04-17', jobId, secret);
    expect(dateOfBirthDigest('1962-04-17', 'another-job', secret)).not.toBe(digest);
    expect(dateOfBirthDigest('1962-04-17', jobId, randomBytes(32).toString('base64'))).not.toBe(digest);
  });
});
