import type { Canvas, Image } from '@napi-rs/canvas';

/**
 * @napi-rs/canvas decodes images and encodes canvases on libuv's thread pool, reading the native object
 * from there, but nothing on the JavaScript side need keep that object reachable meanwhile: an Image
 * whose only references are its own onload callbacks, or a canvas no statement uses after its `encode`
 * call, may be collected mid-task, and Skia then reads freed memory on a pool thread. That is the
 * SIGSEGV seen under load in the OCR tests (a core dump put it in Skia, under
 * `node::ThreadPoolWork`). Objects here are held from module scope until their work has ended.
 */
const working = new Set<object>();

/** How many objects are held for native work under way (a test watches them held and let go). */
export function heldForWork(): number {
  return working.size;
}

async function pinned<T>(object: object, work: () => Promise<T>): Promise<T> {
  working.add(object);
  try {
    return await work();
  } finally {
    working.delete(object);
  }
}

/** An image decoded from encoded bytes (JPEG, PNG), held until its decoding has ended. */
export async function decodedImage(bytes: Uint8Array): Promise<Image> {
  // An Image given no bytes neither loads nor fails (the HTML rule), and would wait for ever.
  if (bytes.length === 0) throw new Error('no image data');
  const { Image: ImageClass } = await import('@napi-rs/canvas');
  const image = new ImageClass();
  return pinned([image, bytes], async () => {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = (error) => reject(error);
      image.src = bytes;
    });
    await image.decode();
    return image;
  });
}

/** The canvas encoded as PNG, or as JPEG at `quality` (0–100), held until its encoding has ended. */
export function encodedCanvas(canvas: Canvas, format: 'png'): Promise<Buffer>;
export function encodedCanvas(canvas: Canvas, format: 'jpeg', quality: number): Promise<Buffer>;
export function encodedCanvas(canvas: Canvas, format: 'png' | 'jpeg', quality?: number): Promise<Buffer> {
  return pinned(canvas, () => (format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', quality)));
}
