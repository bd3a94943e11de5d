import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ConfigError, setting } from './config';

/**
 * AES-256-GCM for the few secrets Hale must keep between request and delivery (report callback
 * tokens). Each sealed value is bound to a context string (e.g. the job it belongs to) as
 * additional authenticated data, so a value copied onto another record does not open.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
const VERSION = 'v1';
const IV_BYTES = 12; // the GCM nonce size NIST SP 800-38D recommends
const KEY_BYTES = 32;

export class CredentialsDecryptError extends Error {
  override name = 'CredentialsDecryptError';
}

function configuredKey(): Buffer {
  const key = Buffer.from(setting('HALE_CREDENTIALS_KEY'), 'base64');
  if (key.length !== KEY_BYTES) throw new ConfigError(`HALE_CREDENTIALS_KEY must be ${KEY_BYTES} bytes, base64-encoded`);
  return key;
}

export function sealCredential(plaintext: string, context: string, key: Buffer = configuredKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function openCredential(sealed: string, context: string, key: Buffer = configuredKey()): string {
  const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || ciphertext === undefined || !tag || rest.length > 0) {
    throw new CredentialsDecryptError('Not a sealed credential');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new CredentialsDecryptError('Sealed credential does not open: altered, sealed for another context, or under another key', { cause: error });
  }
}
