;; The per-pixel loops of frame-stats.ts in WebAssembly SIMD, sixteen pixels at a time (compiled into
;; frame-stats-kernel.ts by scripts/build-wasm.mjs). Every result is a sum of whole numbers, so summing sixteen lanes at
;; once gives exactly the totals of the pixel-by-pixel loops they replace. The caller lays out the memory: frames of
;; 8-bit luma, `width` pixels a row, and arrays of i32 totals.
(module
  (memory (export "memory") 1)

  ;; Adds 16 bytes, widened, to the four i32x4 totals at $at.
  (func $addBytes (param $at i32) (param $bytes v128)
    (local $low v128) (local $high v128)
    (local.set $low (i16x8.extend_low_i8x16_u (local.get $bytes)))
    (local.set $high (i16x8.extend_high_i8x16_u (local.get $bytes)))
    (v128.store offset=0 (local.get $at) (i32x4.add (v128.load offset=0 (local.get $at)) (i32x4.extend_low_i16x8_u (local.get $low))))
    (v128.store offset=16 (local.get $at) (i32x4.add (v128.load offset=16 (local.get $at)) (i32x4.extend_high_i16x8_u (local.get $low))))
    (v128.store offset=32 (local.get $at) (i32x4.add (v128.load offset=32 (local.get $at)) (i32x4.extend_low_i16x8_u (local.get $high))))
    (v128.store offset=48 (local.get $at) (i32x4.add (v128.load offset=48 (local.get $at)) (i32x4.extend_high_i16x8_u (local.get $high)))))

  ;; Rows [y0, y1) of the frame at $frame: adds each pixel to its column's total at $colSum and, when $hasPrevious,
  ;; its absolute change from the frame at $previous to the column's total at $colChange. Returns the pixels at or
  ;; below $darkCode.
  (func (export "band") (param $frame i32) (param $previous i32) (param $width i32) (param $y0 i32) (param $y1 i32)
      (param $hasPrevious i32) (param $colSum i32) (param $colChange i32) (param $darkCode i32) (result i32)
    (local $y i32) (local $x i32) (local $row i32) (local $vectors i32) (local $dark i32) (local $darkLevel v128)
    (local $v v128) (local $p v128) (local $value i32) (local $before i32)
    (local.set $vectors (i32.and (local.get $width) (i32.const -16)))
    (local.set $darkLevel (i8x16.splat (local.get $darkCode)))
    (local.set $y (local.get $y0))
    (block $rowsDone (loop $rows
      (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $y1)))
      (local.set $row (i32.mul (local.get $y) (local.get $width)))
      (local.set $x (i32.const 0))
      (block $done (loop $sixteen
        (br_if $done (i32.ge_s (local.get $x) (local.get $vectors)))
        (local.set $v (v128.load (i32.add (local.get $frame) (i32.add (local.get $row) (local.get $x)))))
        (local.set $dark (i32.add (local.get $dark) (i32.popcnt (i8x16.bitmask (i8x16.le_u (local.get $v) (local.get $darkLevel))))))
        (call $addBytes (i32.add (local.get $colSum) (i32.shl (local.get $x) (i32.const 2))) (local.get $v))
        (if (local.get $hasPrevious) (then
          (local.set $p (v128.load (i32.add (local.get $previous) (i32.add (local.get $row) (local.get $x)))))
          (call $addBytes (i32.add (local.get $colChange) (i32.shl (local.get $x) (i32.const 2)))
            (v128.or (i8x16.sub_sat_u (local.get $v) (local.get $p)) (i8x16.sub_sat_u (local.get $p) (local.get $v))))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $sixteen)))
      (block $done (loop $one
        (br_if $done (i32.ge_s (local.get $x) (local.get $width)))
        (local.set $value (i32.load8_u (i32.add (local.get $frame) (i32.add (local.get $row) (local.get $x)))))
        (if (i32.le_u (local.get $value) (local.get $darkCode)) (then (local.set $dark (i32.add (local.get $dark) (i32.const 1)))))
        (i32.store (i32.add (local.get $colSum) (i32.shl (local.get $x) (i32.const 2)))
          (i32.add (i32.load (i32.add (local.get $colSum) (i32.shl (local.get $x) (i32.const 2)))) (local.get $value)))
        (if (local.get $hasPrevious) (then
          (local.set $before (i32.load8_u (i32.add (local.get $previous) (i32.add (local.get $row) (local.get $x)))))
          (i32.store (i32.add (local.get $colChange) (i32.shl (local.get $x) (i32.const 2)))
            (i32.add (i32.load (i32.add (local.get $colChange) (i32.shl (local.get $x) (i32.const 2))))
              (select (i32.sub (local.get $value) (local.get $before)) (i32.sub (local.get $before) (local.get $value))
                (i32.gt_u (local.get $value) (local.get $before)))))))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $one)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $rows)))
    (local.get $dark))

  ;; |2c - left - right| + |2c - up - down| (a Laplacian: fine detail) of eight pixels, given widened to i16x8.
  (func $laplacian8 (param $c v128) (param $left v128) (param $right v128) (param $up v128) (param $down v128) (result v128)
    (local.set $c (i16x8.shl (local.get $c) (i32.const 1)))
    (i16x8.add
      (i16x8.abs (i16x8.sub (i16x8.sub (local.get $c) (local.get $left)) (local.get $right)))
      (i16x8.abs (i16x8.sub (i16x8.sub (local.get $c) (local.get $up)) (local.get $down)))))

  ;; The Laplacian detail of every inner pixel of the frame at $frame, summed per column into the i32 totals at
  ;; $colDetail (added to) and per row into the i32 totals at $rowDetail (written; the first and last rows are left).
  (func (export "detail") (param $frame i32) (param $width i32) (param $height i32) (param $colDetail i32) (param $rowDetail i32)
    (local $y i32) (local $x i32) (local $row i32) (local $rowSum v128) (local $d v128) (local $at i32) (local $sum i32)
    (local $centre i32) (local $horizontal i32) (local $vertical i32) (local $pixel i32)
    (local $c v128) (local $left v128) (local $right v128) (local $up v128) (local $down v128)
    (local.set $y (i32.const 1))
    (block $rowsDone (loop $rows
      (br_if $rowsDone (i32.ge_s (local.get $y) (i32.sub (local.get $height) (i32.const 1))))
      (local.set $row (i32.add (local.get $frame) (i32.mul (local.get $y) (local.get $width))))
      (local.set $rowSum (v128.const i32x4 0 0 0 0))
      (local.set $x (i32.const 1))
      (block $done (loop $sixteen
        (br_if $done (i32.gt_s (i32.add (local.get $x) (i32.const 16)) (i32.sub (local.get $width) (i32.const 1))))
        (local.set $at (i32.add (local.get $colDetail) (i32.shl (local.get $x) (i32.const 2))))
        (local.set $pixel (i32.add (local.get $row) (local.get $x)))
        (local.set $c (v128.load (local.get $pixel)))
        (local.set $left (v128.load (i32.sub (local.get $pixel) (i32.const 1))))
        (local.set $right (v128.load offset=1 (local.get $pixel)))
        (local.set $up (v128.load (i32.sub (local.get $pixel) (local.get $width))))
        (local.set $down (v128.load (i32.add (local.get $pixel) (local.get $width))))
        (local.set $d (call $laplacian8 (i16x8.extend_low_i8x16_u (local.get $c)) (i16x8.extend_low_i8x16_u (local.get $left))
          (i16x8.extend_low_i8x16_u (local.get $right)) (i16x8.extend_low_i8x16_u (local.get $up)) (i16x8.extend_low_i8x16_u (local.get $down))))
        (local.set $rowSum (i32x4.add (local.get $rowSum) (i32x4.extadd_pairwise_i16x8_s (local.get $d))))
        (v128.store offset=0 (local.get $at) (i32x4.add (v128.load offset=0 (local.get $at)) (i32x4.extend_low_i16x8_s (local.get $d))))
        (v128.store offset=16 (local.get $at) (i32x4.add (v128.load offset=16 (local.get $at)) (i32x4.extend_high_i16x8_s (local.get $d))))
        (local.set $d (call $laplacian8 (i16x8.extend_high_i8x16_u (local.get $c)) (i16x8.extend_high_i8x16_u (local.get $left))
          (i16x8.extend_high_i8x16_u (local.get $right)) (i16x8.extend_high_i8x16_u (local.get $up)) (i16x8.extend_high_i8x16_u (local.get $down))))
        (local.set $rowSum (i32x4.add (local.get $rowSum) (i32x4.extadd_pairwise_i16x8_s (local.get $d))))
        (v128.store offset=32 (local.get $at) (i32x4.add (v128.load offset=32 (local.get $at)) (i32x4.extend_low_i16x8_s (local.get $d))))
        (v128.store offset=48 (local.get $at) (i32x4.add (v128.load offset=48 (local.get $at)) (i32x4.extend_high_i16x8_s (local.get $d))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $sixteen)))
      (local.set $sum (i32.add
        (i32.add (i32x4.extract_lane 0 (local.get $rowSum)) (i32x4.extract_lane 1 (local.get $rowSum)))
        (i32.add (i32x4.extract_lane 2 (local.get $rowSum)) (i32x4.extract_lane 3 (local.get $rowSum)))))
      (block $done (loop $one
        (br_if $done (i32.ge_s (local.get $x) (i32.sub (local.get $width) (i32.const 1))))
        (local.set $pixel (i32.add (local.get $row) (local.get $x)))
        (local.set $centre (i32.shl (i32.load8_u (local.get $pixel)) (i32.const 1)))
        (local.set $horizontal (i32.sub (i32.sub (local.get $centre) (i32.load8_u (i32.sub (local.get $pixel) (i32.const 1))))
          (i32.load8_u offset=1 (local.get $pixel))))
        (local.set $vertical (i32.sub (i32.sub (local.get $centre) (i32.load8_u (i32.sub (local.get $pixel) (local.get $width))))
          (i32.load8_u (i32.add (local.get $pixel) (local.get $width)))))
        (local.set $horizontal (select (local.get $horizontal) (i32.sub (i32.const 0) (local.get $horizontal)) (i32.ge_s (local.get $horizontal) (i32.const 0))))
        (local.set $vertical (select (local.get $vertical) (i32.sub (i32.const 0) (local.get $vertical)) (i32.ge_s (local.get $vertical) (i32.const 0))))
        (local.set $at (i32.add (local.get $colDetail) (i32.shl (local.get $x) (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.add (local.get $horizontal) (local.get $vertical))))
        (local.set $sum (i32.add (local.get $sum) (i32.add (local.get $horizontal) (local.get $vertical))))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $one)))
      (i32.store (i32.add (local.get $rowDetail) (i32.shl (local.get $y) (i32.const 2))) (local.get $sum))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br $rows)))))
