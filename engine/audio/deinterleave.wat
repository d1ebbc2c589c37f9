;; The PCM reader's split of interleaved stereo f32 frames into two planes (pcm-reader-worker.ts), in WebAssembly
;; SIMD, compiled into deinterleave-kernel.ts by scripts/build-wasm.mjs. It works on the shared memory that holds the
;; meter threads' ring of batches and the reader's staging area (pcm-ring.ts); the floats are moved as 32-bit words,
;; bits unchanged.
(module
  (import "pcm" "memory" (memory 1 65536 shared))

  ;; Frames [0, frames) of the interleaved stereo floats at byte $src into the planes at bytes $left and $right.
  (func (export "stereo") (param $src i32) (param $left i32) (param $right i32) (param $frames i32)
    (local $i i32) (local $a v128) (local $b v128) (local $fours i32)
    (local.set $fours (i32.and (local.get $frames) (i32.const -4)))
    (block $done (loop $four
      (br_if $done (i32.ge_u (local.get $i) (local.get $fours)))
      (local.set $a (v128.load (local.get $src)))
      (local.set $b (v128.load offset=16 (local.get $src)))
      (v128.store (local.get $left) (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $a) (local.get $b)))
      (v128.store (local.get $right) (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $a) (local.get $b)))
      (local.set $src (i32.add (local.get $src) (i32.const 32)))
      (local.set $left (i32.add (local.get $left) (i32.const 16)))
      (local.set $right (i32.add (local.get $right) (i32.const 16)))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br $four)))
    (block $done (loop $one
      (br_if $done (i32.ge_u (local.get $i) (local.get $frames)))
      (i32.store (local.get $left) (i32.load (local.get $src)))
      (i32.store (local.get $right) (i32.load offset=4 (local.get $src)))
      (local.set $src (i32.add (local.get $src) (i32.const 8)))
      (local.set $left (i32.add (local.get $left) (i32.const 4)))
      (local.set $right (i32.add (local.get $right) (i32.const 4)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $one))))
)
