import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ConfigError, resetConfigForTests } from '../../../functions/platform/config';
import { CredentialsDecryptError, openCredential, sealCredential } from '../../../functions/platform/credentials-cipher';

const key = randomBytes(32);

describe('credentials cipher', () => {
  it('opens what it sealed, for any text, and never stores the text in the clear', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 200 }), fc.string({ maxLength: 40 }), (secret, context) => {
        const sealed = sealCredential(secret, context, key);
        expect(openCredential(sealed, context, key)).toBe(secret);
        expect(sealed).not.toContain(secret);
        expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
      }),
    );
  });

  it('seals the same text differently each time (fresh nonce)', () => {
    expect(sealCredential('token', 'report:1', key)).not.toBe(sealCredential('token', 'report:1', key));
  });

  it('refuses a value sealed for another record, under another key, or altered', () => {
    const sealed = sealCredential('Bearer abc', 'report:job-1', key);
    expect(() => openCredential(sealed, 'report:job-2', key)).toThrow(CredentialsDecryptError);
    expect(() => openCredential(sealed, 'report:job-1', randomBytes(32))).toThrow(CredentialsDecryptError);
    const [version, iv, ciphertext, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openCredential([version, iv, flipped.toString('base64url'), tag].join('.'), 'report:job-1', key)).toThrow(
      CredentialsDecryptError,
    );
    expect(() => openCredential('plain-token', 'report:job-1', key)).toThrow('Not a sealed credential');
  });

  it('uses HALE_CREDENTIALS_KEY and insists on 32 bytes', () => {
    process.env.HALE_CREDENTIALS_KEY = key.toString('base64');
    resetConfigForTests();
    expect(openCredential(sealCredential('secret', 'ctx'), 'ctx', key)).toBe('secret');
    process.env.HALE_CREDENTIALS_KEY = randomBytes(16).toString('base64');
    resetConfigForTests();
    expect(() => sealCredential('secret', 'ctx')).toThrow(ConfigError);
    delete process.env.HALE_CREDENTIALS_KEY;
    resetConfigForTests();
  });
});
