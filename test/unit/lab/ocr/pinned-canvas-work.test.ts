import { createCanvas } from '@napi-rs/canvas';
import { decodedImage, encodedCanvas, heldForWork } from '../../../../functions/lab/ocr/pinned-canvas-work';

/** Native canvas work on the thread pool, its objects held until it ends (functions/lab/ocr/pinned-canvas-work.ts). */
describe('pinned canvas work', () => {
  it('encodes a canvas as PNG and JPEG and decodes them back to its size, many at once', async () => {
    const canvases = Array.from({ length: 8 }, (_, i) => {
      const canvas = createCanvas(40 + i, 30);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      return canvas;
    });
    const encoded = await Promise.all(canvases.flatMap((canvas) => [encodedCanvas(canvas, 'png'), encodedCanvas(canvas, 'jpeg', 80)]));
    expect(encoded.filter((_, i) => i % 2 === 0).every((png) => png.subarray(1, 4).toString() === 'PNG')).toBe(true);
    expect(encoded.filter((_, i) => i % 2 === 1).every((jpeg) => jpeg[0] === 0xff && jpeg[1] === 0xd8)).toBe(true);
    const images = await Promise.all(encoded.map((bytes) => decodedImage(bytes)));
    expect(images.map((image) => [image.width, image.height])).toEqual(canvases.flatMap((canvas) => [[canvas.width, 30], [canvas.width, 30]]));
  });

  it('holds a canvas from the moment its encoding starts until it ends, and holds nothing once the work is done', async () => {
    // The collector must not free a canvas no statement uses after `encode` while the pool encodes it.
    const encoding = encodedCanvas(createCanvas(400, 300), 'png');
    expect(heldForWork()).toBe(1);
    const png = await encoding;
    expect(heldForWork()).toBe(0);
    await decodedImage(png);
    expect(heldForWork()).toBe(0);
  });

  it('fails on bytes that are no image, and on none, rather than waiting, and lets go of what it held', async () => {
    await expect(decodedImage(Buffer.from('not an image'))).rejects.toBeDefined();
    await expect(decodedImage(new Uint8Array(0))).rejects.toThrow('no image data');
    expect(heldForWork()).toBe(0);
  });
});
