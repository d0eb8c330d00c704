// @ts-check
// The accounts over time (uPlot): one line per player, chronon by chronon up to the shown one.
import { uPlot } from '../vendor/vendor.js';
import { $ } from './dom.js';
import { S } from './state.js';

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
/** @type {uPlot | null} */
let chart = null;
/** What the chart was made for (players, points shown, width): the same, and its data is replaced. */
let made = '';

export function renderChart() {
  const box = $('chart');
  const entries = S.timeline.slice(0, S.cursor + 1);
  const xs = entries.map((_, i) => i);
  const series = S.players.map((p) => entries.map((e) => {
    const a = e.accounts && e.accounts.find((x) => x.player === p);
    return a ? a.value : null;
  }));
  const width = Math.max(280, box.clientWidth || 400);
  const points = xs.length < 40;
  const key = JSON.stringify([S.players, points, width]);
  // a new chart only when its series or size change: making one (uPlot builds and measures its
  // elements) at every drawing of the pane was most of the page's layout work per step
  if (chart && key === made && chart.root.isConnected) {
    chart.setData([xs, ...series]);
    return;
  }
  if (chart) { chart.destroy(); chart = null; }
  made = key;
  chart = new uPlot({
    width,
    height: 170,
    scales: { x: { time: false } },
    axes: [{ label: 'chronon' }, {}],
    series: [{ label: 'chronon' }, ...S.players.map((p, i) => ({
      label: p, stroke: palette[i % palette.length], width: 2, points: { show: points },
    }))],
  }, [xs, ...series], box);
}
