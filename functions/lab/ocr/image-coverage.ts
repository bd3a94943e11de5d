import { getResolvedPDFJS } from 'unpdf';

type Matrix = [number, number, number, number, number, number];

interface PageWithOperators {
  view: number[];
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[] }>;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function isMatrix(value: unknown): value is Matrix {
  return Array.isArray(value) && value.length === 6 && value.every((v) => typeof v === 'number');
}

/**
 * Share of the page (0–1, capped) that its images paint over: an image is drawn into the unit square
 * under the current transformation matrix, so its area is the matrix's determinant. Read from pdf.js's
 * operator list; only asked for pages whose text layer is sparse, since it decodes the images.
 */
export async function imageCoverage(page: PageWithOperators): Promise<number> {
  const { OPS } = await getResolvedPDFJS();
  const images = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat]);
  const { fnArray, argsArray } = await page.getOperatorList();
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let area = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i]!;
    const args = argsArray[i];
    if (op === OPS.save) stack.push(ctm);
    else if (op === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (op === OPS.transform && Array.isArray(args) && isMatrix(args)) ctm = multiply(ctm, args);
    else if (op === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = Array.isArray(args) ? args[0] : undefined;
      if (isMatrix(matrix)) ctm = multiply(ctm, matrix);
    } else if (op === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (images.has(op)) area += Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
  }
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  return pageArea > 0 ? Math.min(1, area / pageArea) : 0;
}
