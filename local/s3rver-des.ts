import crypto from 'node:crypto';

/**
 * s3rver 3.7.1 makes and reads ListObjectsV2 continuation tokens with single DES
 * (`crypto.createCipheriv('des', key, iv)`, lib/controllers/bucket.js), which OpenSSL 3 (Node 17 and
 * later) no longer offers: every listing of more than 1,000 keys answered 500 InternalError
 * ("digital envelope routines::unsupported"), so a bulk job of more than about 330 batches (three part
 * files each) failed locally at assembly. Triple DES with one key three times is single DES exactly
 * (encrypt, decrypt, encrypt with the same key), and OpenSSL 3 still has it, so 'des' is served by
 * 'des-ede3-cbc' with the key repeated. Nothing in Hale itself uses DES.
 */
let installed = false;

export function serveDesForS3rver(): void {
  if (installed) return;
  installed = true;
  const { createCipheriv, createDecipheriv } = crypto;
  const tripled = (key: crypto.CipherKey) => Buffer.concat([Buffer.from(key as Uint8Array), Buffer.from(key as Uint8Array), Buffer.from(key as Uint8Array)]);
  // The module object s3rver's require('crypto') returns; only the 'des' algorithm changes.
  crypto.createCipheriv = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === 'des' ? createCipheriv('des-ede3-cbc', tripled(key), iv, options) : createCipheriv(algorithm, key, iv, options)) as typeof crypto.createCipheriv;
  crypto.createDecipheriv = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === 'des' ? createDecipheriv('des-ede3-cbc', tripled(key), iv, options) : createDecipheriv(algorithm, key, iv, options)) as typeof crypto.createDecipheriv;
}
