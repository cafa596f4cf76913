package expr

import (
	"math"
	"sort"

	"v4t/model/yamlsrc"
)

// Analytical operators (variability.md §9.4): stats-lite 2.2.0 for sum,
// median, mean, variance and standard deviation (which silently drop
// non-finite values), lodash for min and max (which skip NaN).
//
// Quirk: the number lists are literal, not evaluated (variability.md §17).

// finite is stats-lite's numbers(): only finite values take part.
func finite(nums []float64) []float64 {
	out := make([]float64, 0, len(nums))
	for _, n := range nums {
		if !math.IsNaN(n) && !math.IsInf(n, 0) {
			out = append(out, n)
		}
	}
	return out
}

func statsSum(nums []float64) float64 {
	total := 0.0
	for _, n := range finite(nums) {
		total += n
	}
	return total
}

func statsMean(nums []float64) float64 {
	nums = finite(nums)
	if len(nums) == 0 {
		return math.NaN()
	}
	return statsSum(nums) / float64(len(nums))
}

func statsMedian(nums []float64) float64 {
	nums = finite(nums)
	if len(nums) == 0 {
		return math.NaN()
	}
	half := len(nums) / 2
	sort.SliceStable(nums, func(i, j int) bool { return nums[i] < nums[j] })
	if len(nums)%2 == 1 {
		return nums[half]
	}
	return (nums[half-1] + nums[half]) / 2
}

func statsVariance(nums []float64) float64 {
	nums = finite(nums)
	avg := statsMean(nums)
	diffs := make([]float64, len(nums))
	for i, n := range nums {
		d := n - avg
		diffs[i] = float64(d * d) // Math.pow(d, 2)
	}
	return statsMean(diffs)
}

// lodashExtremum is lodash's baseExtremum over numbers: NaN never becomes
// the first candidate and never compares; ok is false when there is none.
func lodashExtremum(nums []float64, better func(a, b float64) bool) (float64, bool) {
	var computed float64
	found := false
	for _, n := range nums {
		if !found {
			if !math.IsNaN(n) {
				computed, found = n, true
			}
		} else if better(n, computed) {
			computed = n
		}
	}
	return computed, found
}

// statistic is the operator that computes f of the numbers of its operand
// list.
func statistic(f func(nums []float64) float64) func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return func(e *Evaluator, x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
		nums, err := e.numbers(x, arg)
		if err != nil {
			return nil, err
		}
		return yamlsrc.NewNumber(f(nums)), nil
	}
}

// rounded is f with its result rounded to two decimals (R2), as the
// reference rounds most of its statistics.
func rounded(f func(nums []float64) float64) func(nums []float64) float64 {
	return func(nums []float64) float64 { return R2(f(nums)) }
}

func statsCount(nums []float64) float64 { return float64(len(nums)) }

func statsStandardDeviation(nums []float64) float64 { return math.Sqrt(statsVariance(nums)) }

func (e *Evaluator) extremum(x, arg *yamlsrc.Value, what string, better func(a, b float64) bool) (*yamlsrc.Value, error) {
	nums, err := e.numbers(x, arg)
	if err != nil {
		return nil, err
	}
	v, ok := lodashExtremum(nums, better)
	if !ok {
		j, err := e.JSON(arg)
		if err != nil {
			return nil, err
		}
		return nil, e.fail(x, what+` of "`+j+`" does not exist`)
	}
	return yamlsrc.NewNumber(v), nil
}

func (e *Evaluator) opMin(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return e.extremum(x, arg, "Minimum", func(a, b float64) bool { return a < b })
}

func (e *Evaluator) opMax(x, arg *yamlsrc.Value) (*yamlsrc.Value, error) {
	return e.extremum(x, arg, "Maximum", func(a, b float64) bool { return a > b })
}
