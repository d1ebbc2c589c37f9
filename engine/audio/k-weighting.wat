;; The K-weighting filter of k-weighting.ts in WebAssembly SIMD (compiled into k-weighting-kernel.ts by
;; scripts/build-wasm.mjs): two channels side by side, one per f64x2 lane. One instance serves one pair of channels;
;; its memory holds, from byte 0:
;;   0    the coefficients (f64): shelf b0 b1 b2 a1 a2, then high-pass b0 b1 b2 a1 a2
;;   128  the state (f64x2, lane 0 the first channel): inputs x1 x2, shelf outputs s1 s2, high-pass outputs y1 y2
;;   224  the sums of squares (f64x2) that $run adds to
;;   256  the samples (f32): the first channel's, then from the byte the caller gives, the second's
;; Both stages are direct form I, each output taken by one subtraction from the terms that do not wait on the
;; output before it, so a recurrence waits on one multiplication and one subtraction per sample; the high-pass
;; numerator is BS.1770's [1, -2, 1], whose products are exact, so it is added rather than multiplied. The coefficients
;; are loaded where they are used: held in locals, they and the state outnumbered the machine's vector registers.
;; Each lane runs, in the same order, the Float64 arithmetic of the plain loop test/loudness.test.ts holds it to
;; (WebAssembly neither fuses nor reorders floating-point operations), so its sums are those bits; the lanes only
;; share instructions.
(module
  (memory (export "memory") 1)

  ;; Filters `frames` samples of each channel (the first at byte $a, the second at byte $b; one place filters one
  ;; channel, in both lanes) and adds their squared outputs to the sums.
  (func (export "run") (param $a i32) (param $b i32) (param $frames i32)
    (local $end i32) (local $x v128) (local $shelved v128) (local $y v128)
    (local $x1 v128) (local $x2 v128) (local $s1 v128) (local $s2 v128) (local $y1 v128) (local $y2 v128) (local $sum v128)
    (local.set $x1 (v128.load offset=128 (i32.const 0)))
    (local.set $x2 (v128.load offset=144 (i32.const 0)))
    (local.set $s1 (v128.load offset=160 (i32.const 0)))
    (local.set $s2 (v128.load offset=176 (i32.const 0)))
    (local.set $y1 (v128.load offset=192 (i32.const 0)))
    (local.set $y2 (v128.load offset=208 (i32.const 0)))
    (local.set $sum (v128.load offset=224 (i32.const 0)))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $frames) (i32.const 2))))
    (block $done (loop $sample
      (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
      (local.set $x (f64x2.promote_low_f32x4 (v128.load32_lane 1 (local.get $b) (v128.load32_zero (local.get $a)))))
      ;; shelved = (((b0 x + b1 x1) + b2 x2) - a2 s2) - a1 s1
      (local.set $shelved (f64x2.sub
        (f64x2.sub
          (f64x2.add (f64x2.add (f64x2.mul (v128.load64_splat offset=0 (i32.const 0)) (local.get $x)) (f64x2.mul (v128.load64_splat offset=8 (i32.const 0)) (local.get $x1)))
            (f64x2.mul (v128.load64_splat offset=16 (i32.const 0)) (local.get $x2)))
          (f64x2.mul (v128.load64_splat offset=32 (i32.const 0)) (local.get $s2)))
        (f64x2.mul (v128.load64_splat offset=24 (i32.const 0)) (local.get $s1))))
      ;; y = (((shelved - (s1 + s1)) + s2) - d2 y2) - d1 y1
      (local.set $y (f64x2.sub
        (f64x2.sub
          (f64x2.add (f64x2.sub (local.get $shelved) (f64x2.add (local.get $s1) (local.get $s1))) (local.get $s2))
          (f64x2.mul (v128.load64_splat offset=72 (i32.const 0)) (local.get $y2)))
        (f64x2.mul (v128.load64_splat offset=64 (i32.const 0)) (local.get $y1))))
      (local.set $sum (f64x2.add (local.get $sum) (f64x2.mul (local.get $y) (local.get $y))))
      (local.set $x2 (local.get $x1))
      (local.set $x1 (local.get $x))
      (local.set $s2 (local.get $s1))
      (local.set $s1 (local.get $shelved))
      (local.set $y2 (local.get $y1))
      (local.set $y1 (local.get $y))
      (local.set $a (i32.add (local.get $a) (i32.const 4)))
      (local.set $b (i32.add (local.get $b) (i32.const 4)))
      (br $sample)))
    (v128.store offset=128 (i32.const 0) (local.get $x1))
    (v128.store offset=144 (i32.const 0) (local.get $x2))
    (v128.store offset=160 (i32.const 0) (local.get $s1))
    (v128.store offset=176 (i32.const 0) (local.get $s2))
    (v128.store offset=192 (i32.const 0) (local.get $y1))
    (v128.store offset=208 (i32.const 0) (local.get $y2))
    (v128.store offset=224 (i32.const 0) (local.get $sum)))
)
