;; The OCR stream's 8-bit luma (changes.ts lumaOf: (54 R + 183 G + 19 B) >> 8, BT.709 weights summing to 256) in
;; WebAssembly SIMD, sixteen pixels at a time, compiled into rgb-luma-kernel.ts by scripts/build-wasm.mjs. The sums
;; reach at most 255 × 256 and are formed in 16-bit lanes, where they wrap nowhere, so every byte is the scalar one.
(module
  (memory (export "memory") 1)

  ;; The luma of the `pixels` RGB pixels at byte $src, one byte each, to byte $dst.
  (func (export "luma") (param $src i32) (param $dst i32) (param $pixels i32)
    (local $i i32) (local $sixteens i32)
    (local $a v128) (local $b v128) (local $c v128) (local $r v128) (local $g v128) (local $bl v128)
    (local.set $sixteens (i32.and (local.get $pixels) (i32.const -16)))
    (block $done (loop $sixteen
      (br_if $done (i32.ge_u (local.get $i) (local.get $sixteens)))
      (local.set $a (v128.load (local.get $src)))
      (local.set $b (v128.load offset=16 (local.get $src)))
      (local.set $c (v128.load offset=32 (local.get $src)))
      ;; Red at bytes 0, 3, ... 45 of the 48, green at 1, 4, ... 46, blue at 2, 5, ... 47.
      (local.set $r (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 17 20 23 26 29
        (i8x16.shuffle 0 3 6 9 12 15 18 21 24 27 30 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
      (local.set $g (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 18 21 24 27 30
        (i8x16.shuffle 1 4 7 10 13 16 19 22 25 28 31 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
      (local.set $bl (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 16 19 22 25 28 31
        (i8x16.shuffle 2 5 8 11 14 17 20 23 26 29 0 0 0 0 0 0 (local.get $a) (local.get $b)) (local.get $c)))
      (v128.store (local.get $dst)
        (i8x16.narrow_i16x8_u
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $r)) (i16x8.splat (i32.const 54)))
                (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $g)) (i16x8.splat (i32.const 183))))
              (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $bl)) (i16x8.splat (i32.const 19))))
            (i32.const 8))
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $r)) (i16x8.splat (i32.const 54)))
                (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $g)) (i16x8.splat (i32.const 183))))
              (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $bl)) (i16x8.splat (i32.const 19))))
            (i32.const 8))))
      (local.set $src (i32.add (local.get $src) (i32.const 48)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      (br $sixteen)))
    (block $done (loop $one
      (br_if $done (i32.ge_u (local.get $i) (local.get $pixels)))
      (i32.store8 (local.get $dst)
        (i32.shr_u
          (i32.add
            (i32.add
              (i32.mul (i32.load8_u (local.get $src)) (i32.const 54))
              (i32.mul (i32.load8_u offset=1 (local.get $src)) (i32.const 183)))
            (i32.mul (i32.load8_u offset=2 (local.get $src)) (i32.const 19)))
          (i32.const 8)))
      (local.set $src (i32.add (local.get $src) (i32.const 3)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $one))))
)
