package main

import (
	"math"
	"slices"
)

// pca returns the k principal directions of the rows of x (n rows of
// dimension d, row-major), largest variance first, and the mean row that
// was removed before finding them. Each direction is a unit vector of
// dimension d, and its sign is fixed (largest component positive) so that
// the same input always gives the same output.
func pca(x []float64, n, d, k int) (dirs [][]float64, mean []float64) {
	mean = make([]float64, d)
	for i := range n {
		for j, v := range x[i*d : (i+1)*d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	cov := make([]float64, d*d)
	row := make([]float64, d)
	for i := range n {
		for j, v := range x[i*d : (i+1)*d] {
			row[j] = v - mean[j]
		}
		for a := range d {
			ra := row[a]
			c := cov[a*d : (a+1)*d]
			for b := a; b < d; b++ {
				c[b] += ra * row[b]
			}
		}
	}
	for a := range d {
		for b := a; b < d; b++ {
			cov[a*d+b] /= float64(n)
			cov[b*d+a] = cov[a*d+b]
		}
	}
	vals, vecs := eigenSym(cov, d)
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	for _, c := range order[:k] {
		v := make([]float64, d)
		big := 0
		for r := range d {
			v[r] = vecs[r*d+c]
			if math.Abs(v[r]) > math.Abs(v[big]) {
				big = r
			}
		}
		if v[big] < 0 {
			for r := range v {
				v[r] = -v[r]
			}
		}
		dirs = append(dirs, v)
	}
	return dirs, mean
}

// eigenSym diagonalises the symmetric d×d matrix a (row-major, overwritten)
// by cyclic Jacobi rotations: it returns the eigenvalues and the matrix
// whose column i is the unit eigenvector of eigenvalue i. Jacobi is slow
// for large matrices but exact to rounding and simple, and d is a few
// hundred here.
func eigenSym(a []float64, d int) (vals, vecs []float64) {
	vecs = make([]float64, d*d)
	for i := range d {
		vecs[i*d+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := range d {
			for q := p + 1; q < d; q++ {
				off += a[p*d+q] * a[p*d+q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := range d {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*d+q] - a[p*d+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d { // columns p and q
					akp, akq := a[k*d+p], a[k*d+q]
					a[k*d+p] = c*akp - s*akq
					a[k*d+q] = s*akp + c*akq
				}
				for k := range d { // rows p and q
					apk, aqk := a[p*d+k], a[q*d+k]
					a[p*d+k] = c*apk - s*aqk
					a[q*d+k] = s*apk + c*aqk
				}
				for k := range d {
					vkp, vkq := vecs[k*d+p], vecs[k*d+q]
					vecs[k*d+p] = c*vkp - s*vkq
					vecs[k*d+q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals = make([]float64, d)
	for i := range d {
		vals[i] = a[i*d+i]
	}
	return vals, vecs
}
