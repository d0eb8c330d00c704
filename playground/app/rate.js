// @ts-check
// Chronons per second while Run is going (issue 17): the chronons Run has added to the timeline
// over the wall-clock time since Run started, pauses between steps included (so with `every 0 ms`
// it is the rate of the whole step: engine, worker messages and drawing). Shown in `#run-rate`.
import { $ } from './dom.js';

const R = { start: 0, chronons: 0 };

/** Run started: the count begins at zero. */
export function rateStart() {
  R.start = performance.now();
  R.chronons = 0;
  $('run-rate').textContent = '';
}

/**
 * A step of Run added `n` chronons; the rate is shown once some time has passed.
 * @param {number} n
 */
export function rateStep(n) {
  R.chronons += n;
  const s = (performance.now() - R.start) / 1000;
  if (s > 0) $('run-rate').textContent = `${(R.chronons / s).toFixed(1)} chronons/s`;
}
