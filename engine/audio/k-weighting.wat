;; The K-weighting filter of k-weighting.ts in WebAssembly SIMD (compiled into k-weighting-kernel.ts by
;; scripts/build-wasm.mjs): two channels side by side, one per f64x2 lane. One instance serves one pair of channels;
;; its memory holds, from byte 0:
;;   0    the coefficients (f64): shelf b0 b1 b2 a1 a2, then high-pass b0 b1 b2 a1 a2
;;   128  the state (f64x2, lane 0 the first channel): shelf s1 s2, high-pass h1 h2
;;   192  the sums of squares (f64x2) that $run adds to
;;   256  the samples (f32): the first channel's, then from the byte the caller gives, the second's
;; Both stages are transposed direct form II. Each lane runs, in the same order, the Float64 arithmetic of the
;; TypeScript loop this replaced (WebAssembly neither fuses nor reorders floating-point operations), so its sums are
;; those bits; the lanes only share instructions. A recurrence waits on its own previous sample, so the two channels
;; cost about the time of one.
(module
  (memory (export "memory") 1)

  ;; Filters `frames` samples of each channel (the first at byte $a, the second at byte $b; one place filters one
  ;; channel, in both lanes) and adds their squared outputs to the sums.
  (func (export "run") (param $a i32) (param $b i32) (param $frames i32)
    (local $end i32) (local $x v128) (local $shelved v128) (local $y v128)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $a1 v128) (local $a2 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $d1 v128) (local $d2 v128)
    (local $s1 v128) (local $s2 v128) (local $h1 v128) (local $h2 v128) (local $sum v128)
    (local.set $b0 (v128.load64_splat offset=0 (i32.const 0)))
    (local.set $b1 (v128.load64_splat offset=8 (i32.const 0)))
    (local.set $b2 (v128.load64_splat offset=16 (i32.const 0)))
    (local.set $a1 (v128.load64_splat offset=24 (i32.const 0)))
    (local.set $a2 (v128.load64_splat offset=32 (i32.const 0)))
    (local.set $c0 (v128.load64_splat offset=40 (i32.const 0)))
    (local.set $c1 (v128.load64_splat offset=48 (i32.const 0)))
    (local.set $c2 (v128.load64_splat offset=56 (i32.const 0)))
    (local.set $d1 (v128.load64_splat offset=64 (i32.const 0)))
    (local.set $d2 (v128.load64_splat offset=72 (i32.const 0)))
    (local.set $s1 (v128.load offset=128 (i32.const 0)))
    (local.set $s2 (v128.load offset=144 (i32.const 0)))
    (local.set $h1 (v128.load offset=160 (i32.const 0)))
    (local.set $h2 (v128.load offset=176 (i32.const 0)))
    (local.set $sum (v128.load offset=192 (i32.const 0)))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $frames) (i32.const 2))))
    (block $done (loop $sample
      (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
      (local.set $x (f64x2.promote_low_f32x4 (v128.load32_lane 1 (local.get $b) (v128.load32_zero (local.get $a)))))
      ;; shelved = b0 x + s1; s1 = b1 x - a1 shelved + s2; s2 = b2 x - a2 shelved
      (local.set $shelved (f64x2.add (f64x2.mul (local.get $b0) (local.get $x)) (local.get $s1)))
      (local.set $s1 (f64x2.add (f64x2.sub (f64x2.mul (local.get $b1) (local.get $x)) (f64x2.mul (local.get $a1) (local.get $shelved))) (local.get $s2)))
      (local.set $s2 (f64x2.sub (f64x2.mul (local.get $b2) (local.get $x)) (f64x2.mul (local.get $a2) (local.get $shelved))))
      ;; y = c0 shelved + h1; h1 = c1 shelved - d1 y + h2; h2 = c2 shelved - d2 y
      (local.set $y (f64x2.add (f64x2.mul (local.get $c0) (local.get $shelved)) (local.get $h1)))
      (local.set $h1 (f64x2.add (f64x2.sub (f64x2.mul (local.get $c1) (local.get $shelved)) (f64x2.mul (local.get $d1) (local.get $y))) (local.get $h2)))
      (local.set $h2 (f64x2.sub (f64x2.mul (local.get $c2) (local.get $shelved)) (f64x2.mul (local.get $d2) (local.get $y))))
      (local.set $sum (f64x2.add (local.get $sum) (f64x2.mul (local.get $y) (local.get $y))))
      (local.set $a (i32.add (local.get $a) (i32.const 4)))
      (local.set $b (i32.add (local.get $b) (i32.const 4)))
      (br $sample)))
    (v128.store offset=128 (i32.const 0) (local.get $s1))
    (v128.store offset=144 (i32.const 0) (local.get $s2))
    (v128.store offset=160 (i32.const 0) (local.get $h1))
    (v128.store offset=176 (i32.const 0) (local.get $h2))
    (v128.store offset=192 (i32.const 0) (local.get $sum)))
)
