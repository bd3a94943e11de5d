// pdfjs-dist ships no declarations for its standalone image decoders; these cover what jpx-image.ts uses.

declare module 'pdfjs-dist/image_decoders/pdf.image_decoders.mjs' {
  export const VerbosityLevel: { readonly ERRORS: number; readonly WARNINGS: number; readonly INFOS: number };
  export function setVerbosityLevel(level: number): void;

  /** pdf.js's JPEG 2000 decoder (OpenJPEG compiled to WebAssembly); pdf.js declares it as a class of static members. */
  export const JpxImage: {
    /**
     * Where the decoder finds its WebAssembly: with `useWorkerFetch` false it asks `handler` for the
     * file (pdf.js's worker asks its main thread the same way), once.
     */
    setOptions(options: {
      handler?: { sendWithPromise(action: 'FetchBinaryData', data: { kind: string; filename: string }): Promise<Uint8Array> };
      useWasm: boolean;
      useWorkerFetch: boolean;
      wasmUrl: string;
    }): void;
    /** The image's samples, interleaved, 8 bits each; `numComponents` 0 gives RGBA. */
    decode(bytes: Uint8Array, options?: { numComponents?: number; isIndexedColormap?: boolean; smaskInData?: boolean; reducePower?: number }): Promise<Uint8Array>;
    parseImageProperties(bytes: Uint8Array): { width: number; height: number; bitsPerComponent: number; componentsCount: number };
  };
}
