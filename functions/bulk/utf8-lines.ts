/**
 * Lines of text as the UTF-8 bytes of a part file, each line ended by `\n`, encoded as it is added
 * into one growing buffer. A batch's result lines are megabytes of JSON, and a few characters of the
 * notes (an en dash) are not Latin-1, so V8 holds every line as two-byte text: joining the lines and
 * handing the joined text to S3, which encodes it again to measure and send it, copied each line
 * three times and held the batch's text on the JS heap at twice its size. Here each line is encoded
 * once, into memory outside the JS heap, and its text is garbage as soon as it is written.
 */

/** A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, two units, takes 4). */
const MAX_BYTES_PER_UNIT = 3;
const INITIAL_BYTES = 64 * 1024;

export class Utf8Lines {
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = 0;
  /** Lines added. */
  count = 0;

  add(text: string): void {
    // Room for the worst case first: Buffer.write cuts what does not fit without saying so.
    this.reserve(this.used + text.length * MAX_BYTES_PER_UNIT + 1);
    this.used += this.bytes.write(text, this.used, 'utf8');
    this.bytes[this.used++] = 0x0a;
    this.count += 1;
  }

  /** The lines' bytes (a view, not a copy). */
  toBuffer(): Buffer {
    return this.bytes.subarray(0, this.used);
  }

  private reserve(size: number): void {
    if (size <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < size) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}
