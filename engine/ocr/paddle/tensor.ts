// What the OCR models are handed and hand back: float tensors, and the colour picture they read.

export interface FloatTensor {
  data: Float32Array;
  dims: number[];
}

/** Interleaved 8-bit RGB, `width` × `height`. */
export interface ColourPicture {
  rgb: Uint8Array;
  width: number;
  height: number;
}
