// A uPlot chart of series over time (x: Unix seconds). uPlot draws to a canvas and keeps 10,000 points smooth;
// the chart is made again when its data changes and follows its box's width.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from './html.js';

const COLOURS = ['#2f7ed8', '#e4572e', '#17a589', '#8e44ad'];

/** `series`: [{ label, values, bars?, format?, axis? }], each values aligned with `times`; `axis` formats the ticks. */
export function LineChart({ name, times, series, height = 240 }) {
  const box = useRef(null);
  useEffect(() => {
    const element = box.current;
    if (element === null || times.length === 0) return;
    const bars = uPlot.paths.bars({ size: [0.8, 40] });
    const options = {
      width: element.clientWidth,
      height,
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      // Times in UTC, as the tables show them.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      axes: [
        {},
        { size: 70, values: (_, ticks) => ticks.map((tick) => (series[0].axis ?? series[0].format ?? String)(tick)) },
      ],
      series: [
        {},
        ...series.map((entry, i) => ({
          label: entry.label,
          stroke: COLOURS[i % COLOURS.length],
          fill: entry.bars ? `${COLOURS[i % COLOURS.length]}99` : undefined,
          width: entry.bars ? 0 : 1.5,
          spanGaps: true,
          points: { show: false },
          paths: entry.bars ? bars : undefined,
          value: (_, value) => (value === null ? '–' : (entry.format ?? String)(value)),
        })),
      ],
    };
    // How long until the first draw ended (uPlot draws after its constructor returns), for bench/pagesBench.ts.
    const started = performance.now();
    let drawn = false;
    options.hooks = {
      draw: [
        () => {
          if (drawn) return;
          drawn = true;
          performance.measure(`chart:${name}`, { start: started, detail: { points: times.length } });
        },
      ],
    };
    const chart = new uPlot(options, [times, ...series.map((entry) => entry.values)], element);
    const resized = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
  }, [times, series]);
  // uPlot owns the inner box: Preact renders nothing into it.
  return html`<div class="chart" data-chart=${name} data-points=${times.length}>
    ${times.length === 0 && html`<p class="empty">nothing to draw</p>`}
    <div ref=${box}></div>
  </div>`;
}
