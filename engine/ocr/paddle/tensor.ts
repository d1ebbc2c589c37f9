// What the OCR models are handed and hand back: float tensors (the colour picture they read is contrast.ts's RgbPicture).

export interface FloatTensor {
  data: Float32Array;
  dims: number[];
}

