;; The inner loops of the large MVD windows (issue 27), in WebAssembly with 128-bit SIMD: two f64
;; lanes a multiply-add, where V8's scalar JavaScript does one. Every kernel forms 2 × 4 blocks of
;; dot products of contiguous rows (8 vector multiply-adds per 6 vector loads, eight independent
;; sums), as the JavaScript kernels they replace did. kernels.ts lays the data out and calls them;
;; build-kernels.ts compiles this file into kernels.wasm.ts (npm run build:kernels -w
;; packages/stats), and kernels.test.ts checks that the two agree.
;;
;; Layout: a matrix is rows of `stride` bytes (a multiple of 16) at `base`; row r starts at
;; base + r · stride. Row ranges are whole blocks: i-ranges of an even length, j-ranges of a multiple
;; of 4, padded with zero rows by the caller (a zero row adds nothing to any sum).
(module
  (memory (export "memory") 1)

  ;; out[a][b] += Σ xₐ[k] x_b[k] over a ∈ [i0, i1), b ∈ [j0, j1) and the bytes [from, from + bytes)
  ;; of each row (bytes a positive multiple of 16): a Gram matrix by slices of its rows that stay in
  ;; cache (gramOfColumns). out[a][b] is the f64 at out + a · outStride + 8 b.
  (func (export "dotTile")
    (param $i0 i32) (param $i1 i32) (param $j0 i32) (param $j1 i32) (param $base i32) (param $stride i32)
    (param $from i32) (param $bytes i32) (param $out i32) (param $outStride i32)
    (local $a i32) (local $b i32) (local $k i32)
    (local $pa0 i32) (local $pa1 i32) (local $pb0 i32) (local $pb1 i32) (local $pb2 i32) (local $pb3 i32)
    (local $o0 i32) (local $o1 i32)
    (local $x v128) (local $y v128) (local $v v128)
    (local $s00 v128) (local $s01 v128) (local $s02 v128) (local $s03 v128)
    (local $s10 v128) (local $s11 v128) (local $s12 v128) (local $s13 v128)
    (local.set $a (local.get $i0))
    (loop $rowsA
      (local.set $pa0
        (i32.add (i32.add (local.get $base) (local.get $from)) (i32.mul (local.get $a) (local.get $stride))))
      (local.set $pa1 (i32.add (local.get $pa0) (local.get $stride)))
      (local.set $b (local.get $j0))
      (loop $rowsB
        (local.set $pb0
          (i32.add (i32.add (local.get $base) (local.get $from)) (i32.mul (local.get $b) (local.get $stride))))
        (local.set $pb1 (i32.add (local.get $pb0) (local.get $stride)))
        (local.set $pb2 (i32.add (local.get $pb1) (local.get $stride)))
        (local.set $pb3 (i32.add (local.get $pb2) (local.get $stride)))
        (local.set $s00 (v128.const f64x2 0 0)) (local.set $s01 (v128.const f64x2 0 0))
        (local.set $s02 (v128.const f64x2 0 0)) (local.set $s03 (v128.const f64x2 0 0))
        (local.set $s10 (v128.const f64x2 0 0)) (local.set $s11 (v128.const f64x2 0 0))
        (local.set $s12 (v128.const f64x2 0 0)) (local.set $s13 (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $values
          (local.set $x (v128.load (i32.add (local.get $pa0) (local.get $k))))
          (local.set $y (v128.load (i32.add (local.get $pa1) (local.get $k))))
          (local.set $v (v128.load (i32.add (local.get $pb0) (local.get $k))))
          (local.set $s00 (f64x2.add (local.get $s00) (f64x2.mul (local.get $x) (local.get $v))))
          (local.set $s10 (f64x2.add (local.get $s10) (f64x2.mul (local.get $y) (local.get $v))))
          (local.set $v (v128.load (i32.add (local.get $pb1) (local.get $k))))
          (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $x) (local.get $v))))
          (local.set $s11 (f64x2.add (local.get $s11) (f64x2.mul (local.get $y) (local.get $v))))
          (local.set $v (v128.load (i32.add (local.get $pb2) (local.get $k))))
          (local.set $s02 (f64x2.add (local.get $s02) (f64x2.mul (local.get $x) (local.get $v))))
          (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (local.get $y) (local.get $v))))
          (local.set $v (v128.load (i32.add (local.get $pb3) (local.get $k))))
          (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (local.get $x) (local.get $v))))
          (local.set $s13 (f64x2.add (local.get $s13) (f64x2.mul (local.get $y) (local.get $v))))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $values (i32.lt_u (local.get $k) (local.get $bytes))))
        ;; Row a's four sums at out[a][b…b+3], row a + 1's below them, two f64 a store.
        (local.set $o0
          (i32.add (local.get $out)
            (i32.add (i32.mul (local.get $a) (local.get $outStride)) (i32.shl (local.get $b) (i32.const 3)))))
        (local.set $o1 (i32.add (local.get $o0) (local.get $outStride)))
        (v128.store (local.get $o0)
          (f64x2.add (v128.load (local.get $o0)) (call $lanes (local.get $s00) (local.get $s01))))
        (v128.store offset=16 (local.get $o0)
          (f64x2.add (v128.load offset=16 (local.get $o0)) (call $lanes (local.get $s02) (local.get $s03))))
        (v128.store (local.get $o1)
          (f64x2.add (v128.load (local.get $o1)) (call $lanes (local.get $s10) (local.get $s11))))
        (v128.store offset=16 (local.get $o1)
          (f64x2.add (v128.load offset=16 (local.get $o1)) (call $lanes (local.get $s12) (local.get $s13))))
        (local.set $b (i32.add (local.get $b) (i32.const 4)))
        (br_if $rowsB (i32.lt_u (local.get $b) (local.get $j1))))
      (local.set $a (i32.add (local.get $a) (i32.const 2)))
      (br_if $rowsA (i32.lt_u (local.get $a) (local.get $i1)))))

  ;; (p's two lanes added, q's two lanes added).
  (func $lanes (param $p v128) (param $q v128) (result v128)
    (f64x2.add
      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $p) (local.get $q))
      (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $p) (local.get $q))))

  ;; Forward substitution in place for the rows r ∈ [r0, r1) of x (at xBase): solves
  ;; C[:t1, :t1] yᵣ = xᵣ[:t1], C lower triangular (rows at cBase, the same stride; C may be x itself
  ;; when its rows [0, t1) lie outside [r0, r1)). Targets four at a time (t1 a multiple of 4): for
  ;; each pair of rows, the 2 × 4 block Σ_{k<t} xᵣ[k] C[t + j][k], then the 4 × 4 diagonal block
  ;; solved in order (cholesky.ts: choleskyForwardRows, choleskyDecompose).
  (func (export "forwardRows")
    (param $cBase i32) (param $xBase i32) (param $stride i32) (param $r0 i32) (param $r1 i32) (param $t1 i32)
    (local $t i32) (local $r i32) (local $k i32) (local $tBytes i32)
    (local $pa i32) (local $pb i32) (local $c0 i32) (local $c1 i32) (local $c2 i32) (local $c3 i32)
    (local $x v128) (local $y v128) (local $v v128)
    (local $s00 v128) (local $s01 v128) (local $s02 v128) (local $s03 v128)
    (local $s10 v128) (local $s11 v128) (local $s12 v128) (local $s13 v128)
    (local $sa v128) (local $sb v128) (local $sc v128) (local $sd v128)
    (local $d0 f64) (local $d1 f64) (local $d2 f64) (local $d3 f64)
    (local $e10 f64) (local $e20 f64) (local $e21 f64) (local $e30 f64) (local $e31 f64) (local $e32 f64)
    (local $u0 f64) (local $u1 f64) (local $u2 f64) (local $u3 f64)
    (if (i32.le_s (local.get $t1) (i32.const 0)) (then (return)))
    (if (i32.le_s (local.get $r1) (local.get $r0)) (then (return)))
    (local.set $t (i32.const 0))
    (loop $targets
      (local.set $tBytes (i32.shl (local.get $t) (i32.const 3)))
      (local.set $c0 (i32.add (local.get $cBase) (i32.mul (local.get $t) (local.get $stride))))
      (local.set $c1 (i32.add (local.get $c0) (local.get $stride)))
      (local.set $c2 (i32.add (local.get $c1) (local.get $stride)))
      (local.set $c3 (i32.add (local.get $c2) (local.get $stride)))
      ;; The 4 × 4 diagonal block of C.
      (local.set $d0 (f64.load (i32.add (local.get $c0) (local.get $tBytes))))
      (local.set $e10 (f64.load (i32.add (local.get $c1) (local.get $tBytes))))
      (local.set $d1 (f64.load offset=8 (i32.add (local.get $c1) (local.get $tBytes))))
      (local.set $e20 (f64.load (i32.add (local.get $c2) (local.get $tBytes))))
      (local.set $e21 (f64.load offset=8 (i32.add (local.get $c2) (local.get $tBytes))))
      (local.set $d2 (f64.load offset=16 (i32.add (local.get $c2) (local.get $tBytes))))
      (local.set $e30 (f64.load (i32.add (local.get $c3) (local.get $tBytes))))
      (local.set $e31 (f64.load offset=8 (i32.add (local.get $c3) (local.get $tBytes))))
      (local.set $e32 (f64.load offset=16 (i32.add (local.get $c3) (local.get $tBytes))))
      (local.set $d3 (f64.load offset=24 (i32.add (local.get $c3) (local.get $tBytes))))
      (local.set $r (local.get $r0))
      (loop $rows
        (local.set $pa (i32.add (local.get $xBase) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $pb (i32.add (local.get $pa) (local.get $stride)))
        (local.set $s00 (v128.const f64x2 0 0)) (local.set $s01 (v128.const f64x2 0 0))
        (local.set $s02 (v128.const f64x2 0 0)) (local.set $s03 (v128.const f64x2 0 0))
        (local.set $s10 (v128.const f64x2 0 0)) (local.set $s11 (v128.const f64x2 0 0))
        (local.set $s12 (v128.const f64x2 0 0)) (local.set $s13 (v128.const f64x2 0 0))
        (if (i32.gt_s (local.get $t) (i32.const 0))
          (then
            (local.set $k (i32.const 0))
            (loop $values
              (local.set $x (v128.load (i32.add (local.get $pa) (local.get $k))))
              (local.set $y (v128.load (i32.add (local.get $pb) (local.get $k))))
              (local.set $v (v128.load (i32.add (local.get $c0) (local.get $k))))
              (local.set $s00 (f64x2.add (local.get $s00) (f64x2.mul (local.get $x) (local.get $v))))
              (local.set $s10 (f64x2.add (local.get $s10) (f64x2.mul (local.get $y) (local.get $v))))
              (local.set $v (v128.load (i32.add (local.get $c1) (local.get $k))))
              (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $x) (local.get $v))))
              (local.set $s11 (f64x2.add (local.get $s11) (f64x2.mul (local.get $y) (local.get $v))))
              (local.set $v (v128.load (i32.add (local.get $c2) (local.get $k))))
              (local.set $s02 (f64x2.add (local.get $s02) (f64x2.mul (local.get $x) (local.get $v))))
              (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (local.get $y) (local.get $v))))
              (local.set $v (v128.load (i32.add (local.get $c3) (local.get $k))))
              (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (local.get $x) (local.get $v))))
              (local.set $s13 (f64x2.add (local.get $s13) (f64x2.mul (local.get $y) (local.get $v))))
              (local.set $k (i32.add (local.get $k) (i32.const 16)))
              (br_if $values (i32.lt_u (local.get $k) (local.get $tBytes))))))
        ;; Row a: (s00, s01) and (s02, s03) with their lanes added; row b likewise.
        (local.set $sa (call $lanes (local.get $s00) (local.get $s01)))
        (local.set $sb (call $lanes (local.get $s02) (local.get $s03)))
        (local.set $sc (call $lanes (local.get $s10) (local.get $s11)))
        (local.set $sd (call $lanes (local.get $s12) (local.get $s13)))
        (local.set $pa (i32.add (local.get $pa) (local.get $tBytes)))
        (local.set $pb (i32.add (local.get $pb) (local.get $tBytes)))
        (local.set $u0
          (f64.div (f64.sub (f64.load (local.get $pa)) (f64x2.extract_lane 0 (local.get $sa))) (local.get $d0)))
        (local.set $u1
          (f64.div
            (f64.sub (f64.sub (f64.load offset=8 (local.get $pa)) (f64x2.extract_lane 1 (local.get $sa)))
              (f64.mul (local.get $e10) (local.get $u0)))
            (local.get $d1)))
        (local.set $u2
          (f64.div
            (f64.sub (f64.sub (f64.load offset=16 (local.get $pa)) (f64x2.extract_lane 0 (local.get $sb)))
              (f64.add (f64.mul (local.get $e20) (local.get $u0)) (f64.mul (local.get $e21) (local.get $u1))))
            (local.get $d2)))
        (local.set $u3
          (f64.div
            (f64.sub (f64.sub (f64.load offset=24 (local.get $pa)) (f64x2.extract_lane 1 (local.get $sb)))
              (f64.add
                (f64.add (f64.mul (local.get $e30) (local.get $u0)) (f64.mul (local.get $e31) (local.get $u1)))
                (f64.mul (local.get $e32) (local.get $u2))))
            (local.get $d3)))
        (f64.store (local.get $pa) (local.get $u0))
        (f64.store offset=8 (local.get $pa) (local.get $u1))
        (f64.store offset=16 (local.get $pa) (local.get $u2))
        (f64.store offset=24 (local.get $pa) (local.get $u3))
        (local.set $u0
          (f64.div (f64.sub (f64.load (local.get $pb)) (f64x2.extract_lane 0 (local.get $sc))) (local.get $d0)))
        (local.set $u1
          (f64.div
            (f64.sub (f64.sub (f64.load offset=8 (local.get $pb)) (f64x2.extract_lane 1 (local.get $sc)))
              (f64.mul (local.get $e10) (local.get $u0)))
            (local.get $d1)))
        (local.set $u2
          (f64.div
            (f64.sub (f64.sub (f64.load offset=16 (local.get $pb)) (f64x2.extract_lane 0 (local.get $sd)))
              (f64.add (f64.mul (local.get $e20) (local.get $u0)) (f64.mul (local.get $e21) (local.get $u1))))
            (local.get $d2)))
        (local.set $u3
          (f64.div
            (f64.sub (f64.sub (f64.load offset=24 (local.get $pb)) (f64x2.extract_lane 1 (local.get $sd)))
              (f64.add
                (f64.add (f64.mul (local.get $e30) (local.get $u0)) (f64.mul (local.get $e31) (local.get $u1)))
                (f64.mul (local.get $e32) (local.get $u2))))
            (local.get $d3)))
        (f64.store (local.get $pb) (local.get $u0))
        (f64.store offset=8 (local.get $pb) (local.get $u1))
        (f64.store offset=16 (local.get $pb) (local.get $u2))
        (f64.store offset=24 (local.get $pb) (local.get $u3))
        (local.set $r (i32.add (local.get $r) (i32.const 2)))
        (br_if $rows (i32.lt_u (local.get $r) (local.get $r1))))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br_if $targets (i32.lt_u (local.get $t) (local.get $t1))))))
