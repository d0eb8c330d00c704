//! The data of the plots of `sidl stats --plot DIR` (docs/stats.md): histograms of each player's
//! final account, of game length and of each metric, and, for a sweep, each statistic's mean with
//! its 95 % interval against the swept value. Computed here, pure, so that every front end draws
//! the same bins and points; the CLI only renders them (as SVG).

use super::sweep::SweepReport;
use super::{fmt_num, GameStats};
use serde::Serialize;

/// The most bins of a histogram.
pub const MAX_BINS: usize = 30;

/// One bar of a histogram: the values `lo <= v < hi` (the last bin also holds `hi`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub lo: f64,
    pub hi: f64,
    pub count: usize,
}

/// The histogram of one statistic over the games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    /// A name fit for a file (`length`, `account-ann`, `metric-revenue`).
    pub name: String,
    /// What is counted (`chronons per game`, `account of [ann]`, `metric revenue`).
    pub title: String,
    /// The values counted (games with a value).
    pub n: usize,
    pub mean: f64,
    /// Whether every value is an integer and each bin holds one integer (bins centred on it).
    pub integer: bool,
    pub bins: Vec<Bin>,
}

/// One point of a series: a swept value and the mean of a statistic there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The value's text.
    pub label: String,
    /// Where it is drawn: the value if it is a number (and every value of the sweep is), else its
    /// position 0, 1, ….
    pub x: f64,
    pub n: usize,
    pub mean: f64,
    pub ci95: [f64; 2],
}

/// A statistic against the swept value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Series {
    /// A name fit for a file (`sweep-metric-revenue`).
    pub name: String,
    pub title: String,
    /// The axis of the swept value (the pattern, `reserve(R)`).
    pub x_label: String,
    /// Whether x is the value itself (all values numbers) or only its position.
    pub numeric: bool,
    /// The values without a summary (no game had the statistic) are left out.
    pub points: Vec<Point>,
}

/// The bins of `values`: one per integer when all are integers spanning at most [`MAX_BINS`]
/// integers; else at most [`MAX_BINS`] bins (Sturges' rule, ⌈log₂ n⌉ + 1) of a round width (1, 2
/// or 5 times a power of ten) starting at a multiple of the width. Empty for no value.
pub fn bins(values: &[f64]) -> (bool, Vec<Bin>) {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let Some(min) = finite.iter().copied().reduce(f64::min) else {
        return (false, Vec::new());
    };
    let max = finite.iter().copied().fold(min, f64::max);
    let integer = finite.iter().all(|v| v.fract() == 0.0);
    if integer && max - min < MAX_BINS as f64 {
        let k = (max - min) as usize + 1;
        let mut out: Vec<Bin> = (0..k)
            .map(|i| Bin {
                lo: min + i as f64 - 0.5,
                hi: min + i as f64 + 0.5,
                count: 0,
            })
            .collect();
        for v in &finite {
            out[(v - min) as usize].count += 1;
        }
        return (true, out);
    }
    let k = ((finite.len() as f64).log2().ceil() as usize + 1).clamp(1, MAX_BINS);
    let width = nice_width((max - min) / k as f64);
    let start = (min / width).floor() * width;
    let count = (((max - start) / width).floor() as usize + 1).min(MAX_BINS * 3);
    let mut out: Vec<Bin> = (0..count)
        .map(|i| Bin {
            lo: start + i as f64 * width,
            hi: start + (i + 1) as f64 * width,
            count: 0,
        })
        .collect();
    for v in &finite {
        let i = (((v - start) / width).floor() as usize).min(count - 1);
        out[i].count += 1;
    }
    while out.len() > 1 && out.last().is_some_and(|b| b.count == 0) {
        out.pop();
    }
    (false, out)
}

/// The smallest of 1, 2, 5 × 10^k that is at least `w` (1 for a zero or odd width).
fn nice_width(w: f64) -> f64 {
    if !(w.is_finite() && w > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(w.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|c| *c >= w * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

/// A name fit for a file: ASCII letters, digits, `-`, `_`, `.` and `=` kept, runs of anything else become
/// one `_` (none at the ends).
pub fn file_name(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.' | '=') {
            out.push(ch);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let t = out.trim_matches('_');
    if t.is_empty() {
        "x".to_string()
    } else {
        t.to_string()
    }
}

fn histogram(name: String, title: String, values: &[f64]) -> Option<Histogram> {
    if values.is_empty() {
        return None;
    }
    let (integer, bins) = bins(values);
    Some(Histogram {
        name,
        title,
        n: values.len(),
        mean: values.iter().sum::<f64>() / values.len() as f64,
        integer,
        bins,
    })
}

/// The histograms of a set of games: game length, each player's final account, each metric (as
/// the report counts them: [`super::Report::of`]).
pub fn histograms(players: &[String], games: &[GameStats]) -> Vec<Histogram> {
    let mut out = Vec::new();
    let lengths: Vec<f64> = games.iter().map(|g| g.chronons as f64).collect();
    out.extend(histogram(
        "length".into(),
        "chronons per game".into(),
        &lengths,
    ));
    for (i, p) in players.iter().enumerate() {
        let values: Vec<f64> = games
            .iter()
            .filter_map(|g| g.accounts.get(i).copied())
            .collect();
        out.extend(histogram(
            format!("account-{}", file_name(p)),
            format!("account of {p}"),
            &values,
        ));
    }
    let mut names: Vec<&str> = Vec::new();
    for g in games {
        for (m, _) in &g.metrics {
            if !names.contains(&m.as_str()) {
                names.push(m);
            }
        }
    }
    for name in names {
        let values: Vec<f64> = games
            .iter()
            .flat_map(|g| g.metrics.iter())
            .filter(|(m, _)| m == name)
            .filter_map(|(_, v)| v.as_ref().ok().copied())
            .collect();
        out.extend(histogram(
            format!("metric-{}", file_name(name)),
            format!("metric {name}"),
            &values,
        ));
    }
    out
}

/// For a sweep: game length, each account and each metric against the swept value, as the mean
/// with its 95 % interval of each value's report.
pub fn sweep_series(sweep: &SweepReport) -> Vec<Series> {
    let numeric = sweep.points.iter().all(|p| p.x.is_some());
    sweep
        .measures()
        .into_iter()
        .map(|m| Series {
            name: format!("sweep-{}", m.key),
            title: m.title,
            x_label: sweep.pattern.clone(),
            numeric,
            points: sweep
                .points
                .iter()
                .zip(&m.summaries)
                .enumerate()
                .filter_map(|(i, (p, s))| {
                    let s = s.as_ref()?;
                    Some(Point {
                        label: p.value.clone(),
                        x: if numeric {
                            p.x.unwrap_or(0.0)
                        } else {
                            i as f64
                        },
                        n: s.n,
                        mean: s.mean,
                        ci95: s.ci95,
                    })
                })
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

/// The text a plot shows for a count or a mean (the report's number format).
pub fn label(x: f64) -> String {
    fmt_num(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_values_get_one_bin_each_and_others_round_bins() {
        let (int, b) = bins(&[1.0, 3.0, 3.0, 5.0]);
        assert!(int);
        assert_eq!(
            b.iter().map(|b| (b.lo, b.count)).collect::<Vec<_>>(),
            [(0.5, 1), (1.5, 0), (2.5, 2), (3.5, 0), (4.5, 1)]
        );
        // 8 values → 4 bins wanted over 0..0.9: width 0.225 → 0.5 → [0, 0.5), [0.5, 1)
        let v = [0.0, 0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9];
        let (int, b) = bins(&v);
        assert!(!int);
        assert_eq!(
            b.iter().map(|b| (b.lo, b.hi, b.count)).collect::<Vec<_>>(),
            [(0.0, 0.5, 4), (0.5, 1.0, 4)]
        );
        // a wide integer range: the maximum lands in the last bin
        let v: Vec<f64> = (0..100).map(|i| (i * 10) as f64).collect();
        let (_, b) = bins(&v);
        assert_eq!(b.iter().map(|b| b.count).sum::<usize>(), 100);
        assert!(b.len() <= MAX_BINS && b.last().unwrap().hi > 990.0);
        assert_eq!(bins(&[]).1, []);
        assert_eq!(bins(&[2.5]).1.len(), 1);
        assert_eq!(file_name("[ann]"), "ann");
        assert_eq!(file_name("p(1, x)"), "p_1_x");
    }
}
