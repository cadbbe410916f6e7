/**
 * The site's scene writes its pixels into an ImageData, which Node lacks; a bare pixel buffer is
 * all the scene uses. Call before importing site modules that build scenes.
 */
export function provideImageData(): void {
  (globalThis as { ImageData?: unknown }).ImageData ??= NodeImageData;
}

class NodeImageData {
  readonly data: Uint8ClampedArray;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }
}
