;; The per-sample scan of stats.ts (ChannelScanner) in WebAssembly SIMD, compiled into stats-scan-kernel.ts by
;; scripts/build-wasm.mjs. Two channels are scanned side by side, one per f64x2 lane: every sum is still added
;; sample by sample in each channel's own order, so each lane holds the bits the TypeScript scan held. Where the
;; TypeScript branched on one channel (a zero crossing, the end of a run of equal samples, a new loudest level), the
;; lanes take masks, and the rare cases (a run to close, a level at or above the next loudest that is neither of the
;; two loudest, a sample near full scale) go to scalar functions per lane.
;;
;; A pair's state is 32 fields of 16 bytes (lane 0: the first channel, lane 1: the second) at the byte offset the
;; caller gives, in this order; stats.ts reads and resets them between blocks. Flags are lane masks (all ones: true).
;; runLength is written at the end of each scan (during one, the run so far is the sample's index minus runStart).
;;   0 blockSum         1 blockSumSquares   2 blockPeak          3 blockDiffSquares   4 lastSample
;;   5 blockFirstLoud   6 previous          7 previousNonNegative 8 runLength         9 runStart
;;   10 blockHasCrossing 11 lastCrossing    12 blockIntervalSum  13 blockIntervalSquares 14 blockIntervals
;;   15 nonFinite       16 loudest          17 loudestCount      18 next              19 nextCount
;;   20 loudestAt       21 loudestRuns      22 loudestRunsFirst  23 loudestRunsLast   24 blockHot
;;   25 fullScaleSamples 26 overs           27 clippedRuns       28 clippedRunSamples 29 longestClippedRun
;;   30 blockPairProduct (Σ first·second over the block; both lanes hold it)
(module
  ;; A run of clipped samples ended: (channel, first sample, length).
  (import "stats" "clipRun" (func $clipRun (param i32 f64 f64)))
  (memory (export "memory") 1)

  ;; stats.ts: MIN_CLIP_RUN_SAMPLES, CLIP_RUN_LEVEL (10^(-0.45/20)) and FULL_SCALE_LEVEL, passed in by init, with the
  ;; byte where the scratch area starts (16 bytes per frame of a scan).
  (global $minRun (mut f64) (f64.const 3))
  (global $clipLevel (mut f64) (f64.const 0))
  (global $fullScale (mut f64) (f64.const 0))
  ;; Where the first pass leaves each frame's pair of samples (f64x2, non-finite ones as 0) for the other two.
  (global $scratch (mut i32) (i32.const 0))

  (func (export "init") (param $minRun f64) (param $clipLevel f64) (param $fullScale f64) (param $scratch i32)
    (global.set $scratch (local.get $scratch))
    (global.set $minRun (local.get $minRun))
    (global.set $clipLevel (local.get $clipLevel))
    (global.set $fullScale (local.get $fullScale)))

  ;; A new pair's state: zeros, with no previous sample (NaN), a non-negative one before the first, no loud sample
  ;; in the block, and no loudest, next or loudest-run positions (-1).
  (func (export "reset") (param $pair i32)
    (local $field i32)
    (local.set $field (i32.const 0))
    (block $done (loop $clear
      (br_if $done (i32.ge_u (local.get $field) (i32.const 512)))
      (v128.store (i32.add (local.get $pair) (local.get $field)) (v128.const i64x2 0 0))
      (local.set $field (i32.add (local.get $field) (i32.const 16)))
      (br $clear)))
    (v128.store offset=80 (local.get $pair) (v128.const f64x2 -1 -1))
    (v128.store offset=96 (local.get $pair) (v128.const f64x2 nan nan))
    (v128.store offset=112 (local.get $pair) (v128.const i64x2 -1 -1))
    (v128.store offset=256 (local.get $pair) (v128.const f64x2 -1 -1))
    (v128.store offset=288 (local.get $pair) (v128.const f64x2 -1 -1))
    (v128.store offset=320 (local.get $pair) (v128.const f64x2 -1 -1))
    (v128.store offset=352 (local.get $pair) (v128.const f64x2 -1 -1))
    (v128.store offset=368 (local.get $pair) (v128.const f64x2 -1 -1)))

  ;; ChannelScanner.closeRun for one lane: $at is the pair's offset plus 8 for the second lane.
  (func $closeRun (param $at i32) (param $channel i32) (param $value f64) (param $start f64) (param $length f64) (param $loudest f64)
    (local $level f64)
    (local.set $level (f64.abs (local.get $value)))
    (if (f64.ge (local.get $level) (global.get $clipLevel)) (then
      (f64.store offset=432 (local.get $at) (f64.add (f64.load offset=432 (local.get $at)) (f64.const 1)))
      (f64.store offset=448 (local.get $at) (f64.add (f64.load offset=448 (local.get $at)) (local.get $length)))
      (if (f64.gt (local.get $length) (f64.load offset=464 (local.get $at)))
        (then (f64.store offset=464 (local.get $at) (local.get $length))))
      (call $clipRun (local.get $channel) (local.get $start) (local.get $length))))
    (if (i32.and (f64.eq (local.get $level) (local.get $loudest)) (f64.gt (local.get $level) (f64.const 0))) (then
      (f64.store offset=336 (local.get $at) (f64.add (f64.load offset=336 (local.get $at)) (f64.const 1)))
      (if (f64.lt (f64.load offset=352 (local.get $at)) (f64.const 0))
        (then (f64.store offset=352 (local.get $at) (local.get $start))))
      (f64.store offset=368 (local.get $at) (local.get $start)))))

  ;; The scan's rare branch for one lane (a ≥ min(next, clip level)); the loudest/next bookkeeping is skipped when
  ;; the lane was already counted as equal to the loudest or the next level.
  (func $rare (param $at i32) (param $a f64) (param $sample f64) (param $counted i32)
    (if (i32.and (i32.eqz (local.get $counted)) (f64.ge (local.get $a) (f64.load offset=288 (local.get $at)))) (then
      (if (f64.gt (local.get $a) (f64.load offset=256 (local.get $at)))
        (then
          (f64.store offset=288 (local.get $at) (f64.load offset=256 (local.get $at)))
          (f64.store offset=304 (local.get $at) (f64.load offset=272 (local.get $at)))
          (f64.store offset=256 (local.get $at) (local.get $a))
          (f64.store offset=272 (local.get $at) (f64.const 1))
          (f64.store offset=320 (local.get $at) (local.get $sample))
          (f64.store offset=336 (local.get $at) (f64.const 0))
          (f64.store offset=352 (local.get $at) (f64.const -1))
          (f64.store offset=368 (local.get $at) (f64.const -1)))
        (else (if (f64.eq (local.get $a) (f64.load offset=256 (local.get $at)))
          (then (f64.store offset=272 (local.get $at) (f64.add (f64.load offset=272 (local.get $at)) (f64.const 1))))
          (else (if (f64.gt (local.get $a) (f64.load offset=288 (local.get $at)))
            (then
              (f64.store offset=288 (local.get $at) (local.get $a))
              (f64.store offset=304 (local.get $at) (f64.const 1)))
            (else (f64.store offset=304 (local.get $at) (f64.add (f64.load offset=304 (local.get $at)) (f64.const 1)))))))))))
    (if (f64.ge (local.get $a) (global.get $clipLevel)) (then
      (f64.store offset=384 (local.get $at) (f64.add (f64.load offset=384 (local.get $at)) (f64.const 1)))
      (if (f64.ge (local.get $a) (global.get $fullScale)) (then
        (f64.store offset=400 (local.get $at) (f64.add (f64.load offset=400 (local.get $at)) (f64.const 1)))
        (if (f64.gt (local.get $a) (f64.const 1))
          (then (f64.store offset=416 (local.get $at) (f64.add (f64.load offset=416 (local.get $at)) (f64.const 1))))))))))

  ;; Scans samples [from, to) of the f32 planes at byte offsets $first and $second (one 10 ms block or part of one)
  ;; into the pair's state. Sample i is sample $sampleOffset + i of the programme and lies $blockOffset + i - from into
  ;; its block; $onset is the block's onset amplitude; $channel is the first plane's channel.
  (func (export "scan") (param $pair i32) (param $first i32) (param $second i32) (param $from i32) (param $to i32)
      (param $sampleOffset f64) (param $blockOffset f64) (param $onset f64) (param $channel i32)
    (local $i i32) (local $x v128) (local $a v128) (local $d v128) (local $mask v128) (local $counted v128)
    (local $sample v128) (local $interval v128) (local $one v128) (local $clip v128)
    (local $sum v128) (local $squares v128) (local $peak v128) (local $diffSquares v128) (local $last v128)
    (local $firstLoud v128) (local $previous v128) (local $previousNonNegative v128) (local $nonNegative v128)
    (local $minRun v128) (local $runStart v128) (local $hasCrossing v128) (local $lastCrossing v128)
    (local $intervalSum v128) (local $intervalSquares v128) (local $intervals v128) (local $nonFinite v128)
    (local $loudest v128) (local $loudestCount v128) (local $next v128) (local $nextCount v128) (local $rareLevel v128)
    (local $product v128) (local $onsetGate v128) (local $equal v128) (local $ending v128) (local $loud v128)
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $clip (f64x2.splat (global.get $clipLevel)))
    (local.set $sum (v128.load offset=0 (local.get $pair)))
    (local.set $squares (v128.load offset=16 (local.get $pair)))
    (local.set $peak (v128.load offset=32 (local.get $pair)))
    (local.set $diffSquares (v128.load offset=48 (local.get $pair)))
    (local.set $last (v128.load offset=64 (local.get $pair)))
    (local.set $firstLoud (v128.load offset=80 (local.get $pair)))
    ;; lanes that have found their block's first loud sample compare against +Infinity
    (local.set $onsetGate (v128.bitselect (f64x2.splat (local.get $onset)) (v128.const f64x2 inf inf)
      (f64x2.lt (local.get $firstLoud) (v128.const f64x2 0 0))))
    (local.set $previous (v128.load offset=96 (local.get $pair)))
    (local.set $previousNonNegative (v128.load offset=112 (local.get $pair)))
    (local.set $minRun (f64x2.splat (global.get $minRun)))
    (local.set $runStart (v128.load offset=144 (local.get $pair)))
    (local.set $hasCrossing (v128.load offset=160 (local.get $pair)))
    (local.set $lastCrossing (v128.load offset=176 (local.get $pair)))
    (local.set $intervalSum (v128.load offset=192 (local.get $pair)))
    (local.set $intervalSquares (v128.load offset=208 (local.get $pair)))
    (local.set $intervals (v128.load offset=224 (local.get $pair)))
    (local.set $nonFinite (v128.load offset=240 (local.get $pair)))
    (local.set $loudest (v128.load offset=256 (local.get $pair)))
    (local.set $loudestCount (v128.load offset=272 (local.get $pair)))
    (local.set $next (v128.load offset=288 (local.get $pair)))
    (local.set $nextCount (v128.load offset=304 (local.get $pair)))
    (local.set $product (v128.load offset=480 (local.get $pair)))
    (local.set $rareLevel (f64x2.min (local.get $next) (local.get $clip)))
    ;; Three passes over the samples (they are in the cache): the sums and the peak, the zero crossings, the rarer
    ;; events. The first loads each frame's two samples from the planes, widens them and zeroes the non-finite ones,
    ;; and leaves the pair in the scratch area, where each later pass loads it in one go (a fifth less time in all).
    ;; In one loop the values live across an iteration outnumbered the 16 vector registers; the compiled loop moved a
    ;; dozen of them to and from the stack every sample, and ran 1.5 times as long in the meter thread when the worker
    ;; ran from its modules as when it ran from the CLI's bundle (the stack's alignment under those moves is the likely
    ;; reason: adding one frame above the loop changed it too). Each sum is still added sample by sample in order.
    (local.set $i (local.get $from))
    (block $done (loop $sums
      (br_if $done (i32.ge_s (local.get $i) (local.get $to)))
      (local.set $x (f64x2.promote_low_f32x4 (v128.load32_lane 1
        (i32.add (local.get $second) (i32.shl (local.get $i) (i32.const 2)))
        (v128.load32_zero (i32.add (local.get $first) (i32.shl (local.get $i) (i32.const 2)))))))
      (local.set $a (f64x2.abs (local.get $x)))
      ;; NaN and ±Infinity count as 0
      (local.set $mask (f64x2.lt (local.get $a) (v128.const f64x2 inf inf)))
      (if (i32.eqz (i64x2.all_true (local.get $mask))) (then
        (local.set $nonFinite (f64x2.add (local.get $nonFinite) (v128.andnot (local.get $one) (local.get $mask))))
        (local.set $x (v128.and (local.get $x) (local.get $mask)))
        (local.set $a (v128.and (local.get $a) (local.get $mask)))))
      (v128.store (i32.add (global.get $scratch) (i32.shl (i32.sub (local.get $i) (local.get $from)) (i32.const 4))) (local.get $x))
      (local.set $sum (f64x2.add (local.get $sum) (local.get $x)))
      (local.set $squares (f64x2.add (local.get $squares) (f64x2.mul (local.get $x) (local.get $x))))
      (local.set $peak (f64x2.pmax (local.get $peak) (local.get $a)))
      (local.set $d (f64x2.sub (local.get $x) (local.get $last)))
      (local.set $diffSquares (f64x2.add (local.get $diffSquares) (f64x2.mul (local.get $d) (local.get $d))))
      (local.set $last (local.get $x))
      (local.set $product (f64x2.add (local.get $product)
        (f64x2.mul (local.get $x) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $sums)))
    ;; sample $sampleOffset + i of the programme, counted up (whole numbers: exact)
    (local.set $i (local.get $from))
    (local.set $sample (f64x2.splat (f64.add (local.get $sampleOffset) (f64.convert_i32_s (local.get $from)))))
    (block $done (loop $crossings
      (br_if $done (i32.ge_s (local.get $i) (local.get $to)))
      ;; the frame as the first pass left it (NaN and ±Infinity as 0)
      (local.set $x (v128.load (i32.add (global.get $scratch) (i32.shl (i32.sub (local.get $i) (local.get $from)) (i32.const 4)))))
      ;; zero crossings: the interval since the previous one counts when both lie in this block (branch-free: a
      ;; crossing's lane is unpredictable, and a mispredicted branch costs more than the arithmetic)
      (local.set $nonNegative (f64x2.ge (local.get $x) (v128.const f64x2 0 0)))
      (local.set $mask (v128.xor (local.get $nonNegative) (local.get $previousNonNegative)))
      (local.set $previousNonNegative (local.get $nonNegative))
      (local.set $counted (v128.and (local.get $mask) (local.get $hasCrossing)))
      (local.set $interval (f64x2.sub (local.get $sample) (local.get $lastCrossing)))
      (local.set $intervalSum (f64x2.add (local.get $intervalSum) (v128.and (local.get $interval) (local.get $counted))))
      (local.set $intervalSquares (f64x2.add (local.get $intervalSquares)
        (v128.and (f64x2.mul (local.get $interval) (local.get $interval)) (local.get $counted))))
      (local.set $intervals (f64x2.add (local.get $intervals) (v128.and (local.get $one) (local.get $counted))))
      (local.set $hasCrossing (v128.or (local.get $hasCrossing) (local.get $mask)))
      (local.set $lastCrossing (v128.bitselect (local.get $sample) (local.get $lastCrossing) (local.get $mask)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $sample (f64x2.add (local.get $sample) (local.get $one)))
      (br $crossings)))
    (local.set $i (local.get $from))
    (local.set $sample (f64x2.splat (f64.add (local.get $sampleOffset) (f64.convert_i32_s (local.get $from)))))
    ;; The common path loops without a call (so nothing it keeps in registers has to go to the stack around one); a
    ;; sample with a rarer event leaves it, is handled, and the loop goes on from the next sample.
    (block $end (loop $samples
      (block $event (loop $quiet
        (br_if $end (i32.ge_s (local.get $i) (local.get $to)))
        (local.set $x (v128.load (i32.add (global.get $scratch) (i32.shl (i32.sub (local.get $i) (local.get $from)) (i32.const 4)))))
        (local.set $a (f64x2.abs (local.get $x)))
        ;; The lanes' rarer events, tested with one branch: a run of equal samples ending (a lane whose sample differs
        ;; from the previous one ends its run, which counts from MIN_CLIP_RUN_SAMPLES; the run so far is
        ;; sample - runStart long), a level at or above min(next, clip level), the block's first sample above the
        ;; onset amplitude.
        (local.set $equal (f64x2.eq (local.get $x) (local.get $previous)))
        (local.set $ending (v128.andnot
          (f64x2.ge (f64x2.sub (local.get $sample) (local.get $runStart)) (local.get $minRun)) (local.get $equal)))
        (local.set $mask (f64x2.ge (local.get $a) (local.get $rareLevel)))
        (local.set $loud (f64x2.gt (local.get $a) (local.get $onsetGate)))
        (br_if $event (v128.any_true (v128.or (v128.or (local.get $ending) (local.get $mask)) (local.get $loud))))
        (local.set $previous (v128.bitselect (local.get $previous) (local.get $x) (local.get $equal)))
        (local.set $runStart (v128.bitselect (local.get $runStart) (local.get $sample) (local.get $equal)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $sample (f64x2.add (local.get $sample) (local.get $one)))
        (br $quiet)))
      ;; a sample with at least one of them, in either lane
      (if (v128.any_true (local.get $ending)) (then
        (if (i64.ne (i64x2.extract_lane 0 (local.get $ending)) (i64.const 0))
          (then (call $closeRun (local.get $pair) (local.get $channel) (f64x2.extract_lane 0 (local.get $previous))
            (f64x2.extract_lane 0 (local.get $runStart)) (f64.sub (f64x2.extract_lane 0 (local.get $sample)) (f64x2.extract_lane 0 (local.get $runStart)))
            (f64x2.extract_lane 0 (local.get $loudest)))))
        (if (i64.ne (i64x2.extract_lane 1 (local.get $ending)) (i64.const 0))
          (then (call $closeRun (i32.add (local.get $pair) (i32.const 8)) (i32.add (local.get $channel) (i32.const 1)) (f64x2.extract_lane 1 (local.get $previous))
            (f64x2.extract_lane 1 (local.get $runStart)) (f64.sub (f64x2.extract_lane 1 (local.get $sample)) (f64x2.extract_lane 1 (local.get $runStart)))
            (f64x2.extract_lane 1 (local.get $loudest)))))))
      ;; levels at or above min(next, clip level): the loudest/next counts and the near-full-scale counts
      (if (v128.any_true (local.get $mask)) (then
        (local.set $d (v128.and (local.get $mask) (f64x2.eq (local.get $a) (local.get $loudest))))
        (local.set $interval (v128.and (local.get $mask) (f64x2.eq (local.get $a) (local.get $next))))
        (local.set $loudestCount (f64x2.add (local.get $loudestCount) (v128.and (local.get $one) (local.get $d))))
        (local.set $nextCount (f64x2.add (local.get $nextCount) (v128.and (local.get $one) (local.get $interval))))
        (local.set $counted (v128.or (local.get $d) (local.get $interval)))
        (local.set $mask (v128.or (v128.andnot (local.get $mask) (local.get $counted)) (f64x2.ge (local.get $a) (local.get $clip))))
        (if (v128.any_true (local.get $mask)) (then
          (v128.store offset=256 (local.get $pair) (local.get $loudest))
          (v128.store offset=272 (local.get $pair) (local.get $loudestCount))
          (v128.store offset=288 (local.get $pair) (local.get $next))
          (v128.store offset=304 (local.get $pair) (local.get $nextCount))
          (if (i64.ne (i64x2.extract_lane 0 (local.get $mask)) (i64.const 0))
            (then (call $rare (local.get $pair) (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 0 (local.get $sample))
              (i64.ne (i64x2.extract_lane 0 (local.get $counted)) (i64.const 0)))))
          (if (i64.ne (i64x2.extract_lane 1 (local.get $mask)) (i64.const 0))
            (then (call $rare (i32.add (local.get $pair) (i32.const 8)) (f64x2.extract_lane 1 (local.get $a)) (f64x2.extract_lane 1 (local.get $sample))
              (i64.ne (i64x2.extract_lane 1 (local.get $counted)) (i64.const 0)))))
          (local.set $loudest (v128.load offset=256 (local.get $pair)))
          (local.set $loudestCount (v128.load offset=272 (local.get $pair)))
          (local.set $next (v128.load offset=288 (local.get $pair)))
          (local.set $nextCount (v128.load offset=304 (local.get $pair)))
          (local.set $rareLevel (f64x2.min (local.get $next) (local.get $clip)))))))
      ;; the block's first sample above the onset amplitude: the lane then stops looking
      (if (v128.any_true (local.get $loud)) (then
        (local.set $firstLoud (v128.bitselect
          (f64x2.splat (f64.sub (f64.add (local.get $blockOffset) (f64.convert_i32_s (local.get $i))) (f64.convert_i32_s (local.get $from))))
          (local.get $firstLoud) (local.get $loud)))
        (local.set $onsetGate (v128.bitselect (v128.const f64x2 inf inf) (local.get $onsetGate) (local.get $loud)))))
      (local.set $previous (v128.bitselect (local.get $previous) (local.get $x) (local.get $equal)))
      (local.set $runStart (v128.bitselect (local.get $runStart) (local.get $sample) (local.get $equal)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $sample (f64x2.add (local.get $sample) (local.get $one)))
      (br $samples)))
    (v128.store offset=0 (local.get $pair) (local.get $sum))
    (v128.store offset=16 (local.get $pair) (local.get $squares))
    (v128.store offset=32 (local.get $pair) (local.get $peak))
    (v128.store offset=48 (local.get $pair) (local.get $diffSquares))
    (v128.store offset=64 (local.get $pair) (local.get $last))
    (v128.store offset=80 (local.get $pair) (local.get $firstLoud))
    (v128.store offset=96 (local.get $pair) (local.get $previous))
    (v128.store offset=112 (local.get $pair) (local.get $previousNonNegative))
    (if (i32.lt_s (local.get $from) (local.get $to)) (then
      (v128.store offset=128 (local.get $pair)
        (f64x2.sub (f64x2.splat (f64.add (local.get $sampleOffset) (f64.convert_i32_s (local.get $to)))) (local.get $runStart)))))
    (v128.store offset=144 (local.get $pair) (local.get $runStart))
    (v128.store offset=160 (local.get $pair) (local.get $hasCrossing))
    (v128.store offset=176 (local.get $pair) (local.get $lastCrossing))
    (v128.store offset=192 (local.get $pair) (local.get $intervalSum))
    (v128.store offset=208 (local.get $pair) (local.get $intervalSquares))
    (v128.store offset=224 (local.get $pair) (local.get $intervals))
    (v128.store offset=240 (local.get $pair) (local.get $nonFinite))
    (v128.store offset=256 (local.get $pair) (local.get $loudest))
    (v128.store offset=272 (local.get $pair) (local.get $loudestCount))
    (v128.store offset=288 (local.get $pair) (local.get $next))
    (v128.store offset=304 (local.get $pair) (local.get $nextCount))
    (v128.store offset=480 (local.get $pair) (local.get $product)))

  ;; ChannelScanner.finishRuns for both lanes: ends the runs still open at the end of the stream.
  (func (export "finishRuns") (param $pair i32) (param $channel i32)
    (local $lane i32) (local $at i32)
    (loop $lanes
      (local.set $at (i32.add (local.get $pair) (i32.shl (local.get $lane) (i32.const 3))))
      (if (f64.ge (f64.load offset=128 (local.get $at)) (global.get $minRun))
        (then (call $closeRun (local.get $at) (i32.add (local.get $channel) (local.get $lane)) (f64.load offset=96 (local.get $at))
          (f64.load offset=144 (local.get $at)) (f64.load offset=128 (local.get $at)) (f64.load offset=256 (local.get $at)))))
      (f64.store offset=128 (local.get $at) (f64.const 0))
      (local.set $lane (i32.add (local.get $lane) (i32.const 1)))
      (br_if $lanes (i32.lt_u (local.get $lane) (i32.const 2)))))
)
