package expr

import (
	"math"

	"v4t/model/js"
	"v4t/model/yamlsrc"
)

// Regressions (variability.md §9.5): a port of regression-js 2.0.1 with
// precision 2, keeping its operation order. Products that feed a sum are
// converted explicitly so that no platform fuses them into FMA instructions.
//
// Quirk: the data, order and x0 are literal, not evaluated
// (variability.md §17); a pair with fewer than two numbers contributes
// undefined, i.e. NaN.

// maxPolynomialTerms bounds order+1. The reference would build a matrix of
// that size (and loop forever for an infinite order); beyond this bound we
// stop with our own error instead.
const maxPolynomialTerms = 64

// pair is one data point; a missing coordinate is undefined in the
// reference, which is NaN in its arithmetic.
type pair struct{ x, y float64 }

// regressionArgs checks the operator argument like the reference:
// assert.isArray(arg), assert.isArray(arg[0]), every pair assert.isNumbers,
// and then the numeric operands at the given positions.
func (e *Evaluator) regressionArgs(x, arg *yamlsrc.Value, operands ...int) ([]pair, []float64, error) {
	if err := e.array(x, arg); err != nil {
		return nil, nil, err
	}
	elements := index(arg, 0)
	if err := e.array(x, elements); err != nil {
		return nil, nil, err
	}
	data := make([]pair, len(elements.List()))
	for i, it := range elements.List() {
		nums, err := e.numbers(x, it)
		if err != nil {
			return nil, nil, err
		}
		p := pair{math.NaN(), math.NaN()}
		if len(nums) > 0 {
			p.x = nums[0]
		}
		if len(nums) > 1 {
			p.y = nums[1]
		}
		data[i] = p
	}
	vals := make([]float64, len(operands))
	for i, pos := range operands {
		n, err := e.number(x, index(arg, pos))
		if err != nil {
			return nil, nil, err
		}
		vals[i] = n
	}
	return data, vals, nil
}

// regression is the operator that fits data, its first operand, and
// predicts the value at x0, its second, rounded to two decimals.
func regression(predict func(data []pair, x0 float64) float64) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		data, v, err := e.regressionArgs(x, arg, 1)
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewNumber(R2(predict(data, v[0]))), nil
	}
}

func (e *Evaluator) opPolynomialRegression(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	data, v, err := e.regressionArgs(x, arg, 1, 2)
	if err != nil {
		return nil, err
	}
	k := v[0] + 1
	if k > maxPolynomialTerms {
		return nil, e.fail(x, "polynomial regression of order "+js.FormatNumber(v[0])+" is not supported")
	}
	return yamlsrc.NewNumber(R2(polynomialRegression(data, k, v[1]))), nil
}

// linearRegression is regression.linear(data).predict(x0)[1].
func linearRegression(data []pair, x0 float64) float64 {
	var s0, s1, s2, s3 float64
	n := 0.0
	for _, p := range data {
		n++
		s0 += p.x
		s1 += p.y
		s2 += float64(p.x * p.x)
		s3 += float64(p.x * p.y)
	}
	run := float64(n*s2) - float64(s0*s0)
	rise := float64(n*s3) - float64(s0*s1)
	gradient := 0.0
	if run != 0 {
		gradient = RR(rise / run)
	}
	intercept := RR(s1/n - float64(gradient*s0)/n)
	return RR(float64(gradient*x0) + intercept)
}

// exponentialRegression is regression.exponential(data).predict(x0)[1].
func exponentialRegression(data []pair, x0 float64) float64 {
	var s1, s2, s3, s4, s5 float64
	for _, p := range data {
		ly := js.Log(p.y)
		s1 += p.y
		s2 += float64(float64(p.x*p.x) * p.y)
		s3 += float64(p.y * ly)
		s4 += float64(float64(p.x*p.y) * ly)
		s5 += float64(p.x * p.y)
	}
	denominator := float64(s1*s2) - float64(s5*s5)
	a := js.Exp((float64(s2*s3) - float64(s5*s4)) / denominator)
	b := (float64(s1*s4) - float64(s5*s3)) / denominator
	coeffA, coeffB := RR(a), RR(b)
	return RR(coeffA * js.Exp(coeffB*x0))
}

// logarithmicRegression is regression.logarithmic(data).predict(x0)[1].
func logarithmicRegression(data []pair, x0 float64) float64 {
	var s0, s1, s2, s3 float64
	n := float64(len(data))
	for _, p := range data {
		lx := js.Log(p.x)
		s0 += lx
		s1 += float64(p.y * lx)
		s2 += p.y
		s3 += float64(lx * lx) // Math.pow(log(x), 2)
	}
	a := (float64(n*s1) - float64(s2*s0)) / (float64(n*s3) - float64(s0*s0))
	coeffB := RR(a)
	coeffA := RR((s2 - float64(coeffB*s0)) / n)
	return RR(RR(coeffA + float64(coeffB*js.Log(x0))))
}

// polynomialRegression is regression.polynomial(data, {order: k-1})
// .predict(x0)[1]; k ≤ maxPolynomialTerms.
func polynomialRegression(data []pair, k, x0 float64) float64 {
	terms := 0 // the loops run for i = 0, 1, ... while i < k
	if k > 0 {
		terms = int(math.Ceil(k))
	}
	// matrix[c] is the c-th pushed array: the rows of the normal equations
	// for c < terms, the right-hand side for c == terms.
	matrix := make([][]float64, terms+1)
	lhs := make([]float64, terms)
	for i := 0; i < terms; i++ {
		a := 0.0
		for _, p := range data {
			a += float64(js.Pow(p.x, float64(i)) * p.y)
		}
		lhs[i] = a
		c := make([]float64, terms)
		for j := 0; j < terms; j++ {
			b := 0.0
			for _, p := range data {
				b += js.Pow(p.x, float64(i+j))
			}
			c[j] = b
		}
		matrix[i] = c
	}
	matrix[terms] = lhs
	coefficients := gaussianElimination(matrix, k)
	for i, c := range coefficients {
		coefficients[i] = RR(c)
	}
	sum := 0.0
	for power, c := range coefficients {
		sum += float64(c * js.Pow(x0, float64(power)))
	}
	return RR(sum)
}

// gaussianElimination is regression-js's solver on the column-stored
// augmented matrix (variability.md §9.5).
//
// Quirk: polynomial coefficients start as [order+1] (variability.md §17; not
// listed there yet): regression-js passes k as "order", and with no terms
// (order < 0 or NaN) that is the prediction.
func gaussianElimination(matrix [][]float64, order float64) []float64 {
	n := len(matrix) - 1
	coefficients := make([]float64, max(n, 1))
	coefficients[0] = order
	for i := range n {
		maxrow := i
		for j := i + 1; j < n; j++ {
			if math.Abs(matrix[i][j]) > math.Abs(matrix[i][maxrow]) {
				maxrow = j
			}
		}
		for k := i; k < n+1; k++ {
			matrix[k][i], matrix[k][maxrow] = matrix[k][maxrow], matrix[k][i]
		}
		for j := i + 1; j < n; j++ {
			for k := n; k >= i; k-- {
				matrix[k][j] -= float64(matrix[k][i]*matrix[i][j]) / matrix[i][i]
			}
		}
	}
	for j := n - 1; j >= 0; j-- {
		total := 0.0
		for k := j + 1; k < n; k++ {
			total += float64(matrix[k][j] * coefficients[k])
		}
		coefficients[j] = (matrix[n][j] - total) / matrix[j][j]
	}
	return coefficients
}
