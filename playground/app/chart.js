// @ts-check
// The accounts over time (uPlot): one line per player, chronon by chronon up to the shown one.
import { uPlot } from '../vendor/vendor.js';
import { $ } from './dom.js';
import { S } from './state.js';

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
/** @type {uPlot | null} */
let chart = null;

export function renderChart() {
  const box = $('chart');
  if (chart) { chart.destroy(); chart = null; }
  const entries = S.timeline.slice(0, S.cursor + 1);
  const xs = entries.map((_, i) => i);
  const series = S.players.map((p) => entries.map((e) => {
    const a = e.accounts && e.accounts.find((x) => x.player === p);
    return a ? a.value : null;
  }));
  chart = new uPlot({
    width: Math.max(280, box.clientWidth || 400),
    height: 170,
    scales: { x: { time: false } },
    axes: [{ label: 'chronon' }, {}],
    series: [{ label: 'chronon' }, ...S.players.map((p, i) => ({
      label: p, stroke: palette[i % palette.length], width: 2, points: { show: xs.length < 40 },
    }))],
  }, [xs, ...series], box);
}
