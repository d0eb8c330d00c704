//! `sidl stats --plot DIR`: draws the engine's plot data ([`sidl_engine::stats::plot`]) as SVG
//! files with `plotters` (its SVG backend only). Nothing is computed here but pixel positions: the
//! bins, counts, means and intervals come from the engine, so that the playground draws the same.
//! The counts over the bars and the means beside the points are written in the bars' colour, so
//! a reader (and the tests) can read the numbers off the picture.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sidl_engine::stats::plot::{label, Histogram, Series};
use std::path::Path;

const SIZE: (u32, u32) = (800, 480);
/// The colour of the bars, points and their numbers.
pub const INK: RGBColor = RGBColor(0x1f, 0x77, 0xb4);

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A histogram as SVG text.
pub fn histogram_svg(h: &Histogram) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (Some(first), Some(last)) = (h.bins.first(), h.bins.last()) else {
            return Err("nothing to draw".into());
        };
        // half a bin of room on each side, and room for at least five bins
        let w = first.hi - first.lo;
        let room = (w / 2.0).max((5.0 * w - (last.hi - first.lo)) / 2.0);
        let (x0, x1) = (first.lo - room, last.hi + room);
        let top = h.bins.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
        let caption = format!("{}: {} game(s), mean {}", h.title, h.n, label(h.mean));
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, 0f64..top * 1.12)
            .map_err(err)?;
        let integer = h.integer;
        let bins = h.bins.len();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_labels(if integer { bins.min(16) + 1 } else { bins + 1 })
            .x_label_formatter(&|x| {
                if integer && x.fract() != 0.0 {
                    String::new()
                } else {
                    label(*x)
                }
            })
            .y_label_formatter(&|y| {
                if y.fract() == 0.0 {
                    label(*y)
                } else {
                    String::new()
                }
            })
            .x_desc(h.title.as_str())
            .y_desc("games")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(
                h.bins
                    .iter()
                    .map(|b| Rectangle::new([(b.lo, 0.0), (b.hi, b.count as f64)], INK.filled())),
            )
            .map_err(err)?;
        chart
            .draw_series(h.bins.iter().map(|b| {
                Rectangle::new([(b.lo, 0.0), (b.hi, b.count as f64)], WHITE.stroke_width(1))
            }))
            .map_err(err)?;
        let font = ("sans-serif", 12)
            .into_font()
            .color(&INK)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series(h.bins.iter().map(|b| {
                Text::new(
                    b.count.to_string(),
                    ((b.lo + b.hi) / 2.0, b.count as f64),
                    font.clone(),
                )
            }))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// A statistic against a swept value as SVG text: the means joined by a line, each with its 95 %
/// interval as an error bar and its value written beside it.
pub fn series_svg(s: &Series) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        if s.points.is_empty() {
            return Err("nothing to draw".into());
        }
        let xs = s.points.iter().map(|p| p.x);
        let (x0, x1) = (
            xs.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
        );
        let pad = if x1 > x0 { (x1 - x0) * 0.08 } else { 0.5 };
        let lo = s
            .points
            .iter()
            .map(|p| p.ci95[0].min(p.mean))
            .fold(f64::INFINITY, f64::min);
        let hi = s
            .points
            .iter()
            .map(|p| p.ci95[1].max(p.mean))
            .fold(f64::NEG_INFINITY, f64::max);
        let ypad = if hi > lo { (hi - lo) * 0.12 } else { 1.0 };
        let caption = format!("{} against {} (mean, 95 % CI)", s.title, s.x_label);
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x0 - pad..x1 + pad, lo - ypad..hi + ypad)
            .map_err(err)?;
        let numeric = s.numeric;
        let labels: Vec<(f64, String)> = s.points.iter().map(|p| (p.x, p.label.clone())).collect();
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_labels(if numeric { 12 } else { labels.len() + 1 })
            .x_label_formatter(&|x| {
                if numeric {
                    label(*x)
                } else {
                    labels
                        .iter()
                        .find(|(px, _)| (px - x).abs() < 1e-9)
                        .map(|(_, l)| l.clone())
                        .unwrap_or_default()
                }
            })
            .y_label_formatter(&|y| label(*y))
            .x_desc(s.x_label.as_str())
            .y_desc(s.title.as_str())
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.x, p.mean)),
                INK.mix(0.5),
            ))
            .map_err(err)?;
        chart
            .draw_series(s.points.iter().map(|p| {
                ErrorBar::new_vertical(p.x, p.ci95[0], p.mean, p.ci95[1], INK.filled(), 10)
            }))
            .map_err(err)?;
        let font = ("sans-serif", 12)
            .into_font()
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        chart
            .draw_series(s.points.iter().map(|p| {
                EmptyElement::at((p.x, p.mean)) + Text::new(label(p.mean), (9, -9), font.clone())
            }))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Writes `NAME.svg` into `dir` (created if needed).
pub fn write(dir: &Path, name: &str, svg: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.svg"));
    std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
