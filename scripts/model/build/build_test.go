package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestEigenSymDiagonalisesAKnownMatrix(t *testing.T) {
	// [[2,1],[1,2]] has eigenvalues 3 (along (1,1)) and 1 (along (1,-1)).
	a := []float64{2, 1, 1, 2}
	vals, vecs := eigenSym(a, 2)
	got := map[int]float64{}
	for i, v := range vals {
		got[int(math.Round(v))] = math.Abs(vecs[0*2+i] + vecs[1*2+i])
	}
	if len(got) != 2 || math.Abs(got[3]-math.Sqrt2) > 1e-9 || got[1] > 1e-9 {
		t.Fatalf("eigenvalues %v, vectors %v", vals, vecs)
	}
}

func TestEigenSymReconstructsARandomSymmetricMatrix(t *testing.T) {
	const d = 12
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			a[i*d+j] = r.NormFloat64()
			a[j*d+i] = a[i*d+j]
		}
	}
	orig := append([]float64(nil), a...)
	vals, v := eigenSym(a, d)
	for i := range d { // V diag(vals) Vᵀ == A
		for j := range d {
			var s float64
			for k := range d {
				s += v[i*d+k] * vals[k] * v[j*d+k]
			}
			if math.Abs(s-orig[i*d+j]) > 1e-9 {
				t.Fatalf("(%d,%d): %g, want %g", i, j, s, orig[i*d+j])
			}
		}
	}
}

func TestPCAFindsTheDirectionOfMostVariance(t *testing.T) {
	// Points spread along (3,4)/5 with a little noise and an offset.
	const n, d = 500, 2
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 0, n*d)
	for range n {
		s, e := r.NormFloat64()*10, r.NormFloat64()*0.1
		x = append(x, 7+s*0.6-e*0.8, -2+s*0.8+e*0.6)
	}
	dirs, mean := pca(x, n, d, 1)
	if math.Abs(dirs[0][0]-0.6) > 0.01 || math.Abs(dirs[0][1]-0.8) > 0.01 {
		t.Fatalf("direction %v, want (0.6, 0.8)", dirs[0])
	}
	if math.Abs(mean[0]-7) > 1 || math.Abs(mean[1]+2) > 1 {
		t.Fatalf("mean %v, want about (7, -2)", mean)
	}
}

func TestUnitScalesToLengthOne(t *testing.T) {
	got := unit([]float64{3, -4})
	if got[0] != 0.6 || got[1] != -0.8 {
		t.Fatalf("unit(3, -4) = %v", got)
	}
	if got := unit([]float64{0, 0}); got[0] != 0 || got[1] != 0 {
		t.Fatalf("unit(0, 0) = %v", got)
	}
}

func TestUsefulDropsHashesAndLongNumbers(t *testing.T) {
	for tok, want := range map[string]bool{
		"database": true, "404": true, "8080": true, "u128": true, "sha256": true, "deadbeef": true,
		"123456": false, "3f2a9c1e": false, "0x7fff": true, "</s>": false, "e3b0c44298fc1c149afb": false, "Database": false, "pg_dump": false,
	} {
		if got := useful(tok); got != want {
			t.Errorf("useful(%q) = %v, want %v", tok, got, want)
		}
	}
}
