;; The thumbnail distance of loops.ts in WebAssembly SIMD, sixteen cells at a time (compiled into
;; thumb-distance-kernel.ts by scripts/build-wasm.mjs). The distance is a sum of whole numbers and the two ways it gives
;; up (a cell further apart than the limit, the sum past its limit) do not depend on the order the cells are read in,
;; so reading them sixteen at a time gives exactly the answer of the cell-by-cell loop it replaces. The caller lays out
;; the memory: thumbnails of `size` bytes, one after another.
(module
  (memory (export "memory") 1)

  ;; The sum of the absolute differences of the `size` bytes at $a and at $b, or -1 once a cell differs by more than
  ;; $cellMax or the sum exceeds $limit (checked every 64 cells, and at the end).
  (func (export "distance") (param $a i32) (param $b i32) (param $size i32) (param $cellMax i32) (param $limit i32) (result i32)
    (local $i i32) (local $vectors i32) (local $va v128) (local $vb v128) (local $d v128) (local $sums v128)
    (local $widest v128) (local $sum i32) (local $x i32) (local $y i32)
    (local.set $vectors (i32.and (local.get $size) (i32.const -16)))
    (block $done (loop $sixteen
      (br_if $done (i32.ge_u (local.get $i) (local.get $vectors)))
      (local.set $va (v128.load (i32.add (local.get $a) (local.get $i))))
      (local.set $vb (v128.load (i32.add (local.get $b) (local.get $i))))
      (local.set $d (v128.or (i8x16.sub_sat_u (local.get $va) (local.get $vb)) (i8x16.sub_sat_u (local.get $vb) (local.get $va))))
      (local.set $widest (i8x16.max_u (local.get $widest) (local.get $d)))
      (local.set $sums (i32x4.add (local.get $sums) (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $d)))))
      (local.set $i (i32.add (local.get $i) (i32.const 16)))
      ;; Every 64 cells: give up early, as the cell-by-cell loop would (its answer is the same either way).
      (if (i32.eqz (i32.and (local.get $i) (i32.const 63))) (then
        (if (call $past (call $largest (local.get $widest)) (call $total (local.get $sums)) (local.get $cellMax) (local.get $limit))
          (then (return (i32.const -1))))))
      (br $sixteen)))
    (local.set $widest (i8x16.splat (call $largest (local.get $widest))))
    (local.set $sum (call $total (local.get $sums)))
    ;; The cells past the last whole sixteen, one at a time.
    (block $tailDone (loop $tail
      (br_if $tailDone (i32.ge_u (local.get $i) (local.get $size)))
      (local.set $x (i32.load8_u (i32.add (local.get $a) (local.get $i))))
      (local.set $y (i32.load8_u (i32.add (local.get $b) (local.get $i))))
      (local.set $x (select (i32.sub (local.get $x) (local.get $y)) (i32.sub (local.get $y) (local.get $x)) (i32.ge_u (local.get $x) (local.get $y))))
      (local.set $widest (i8x16.max_u (local.get $widest) (i8x16.splat (local.get $x))))
      (local.set $sum (i32.add (local.get $sum) (local.get $x)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $tail)))
    (select (i32.const -1) (local.get $sum)
      (call $past (call $largest (local.get $widest)) (local.get $sum) (local.get $cellMax) (local.get $limit))))

  ;; Whether a largest cell difference or a sum is past its limit.
  (func $past (param $largest i32) (param $sum i32) (param $cellMax i32) (param $limit i32) (result i32)
    (i32.or (i32.gt_u (local.get $largest) (local.get $cellMax)) (i32.gt_u (local.get $sum) (local.get $limit))))

  ;; The four i32 lanes added.
  (func $total (param $v v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
      (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v)))))

  ;; The largest of the sixteen bytes.
  (func $largest (param $v v128) (result i32)
    (local.set $v (i8x16.max_u (local.get $v) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $v) (local.get $v))))
    (local.set $v (i8x16.max_u (local.get $v) (i8x16.shuffle 4 5 6 7 0 0 0 0 0 0 0 0 0 0 0 0 (local.get $v) (local.get $v))))
    (local.set $v (i8x16.max_u (local.get $v) (i8x16.shuffle 2 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 (local.get $v) (local.get $v))))
    (i8x16.extract_lane_u 0 (i8x16.max_u (local.get $v) (i8x16.shuffle 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 (local.get $v) (local.get $v)))))
)
