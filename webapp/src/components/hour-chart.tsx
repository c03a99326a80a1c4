/**
 * Orders per hour as a bar chart in plain SVG (24 bars; a chart library would add more script than the
 * whole console for one chart). Colours are the theme's (currentColor and the accent variable), so it
 * reads in light and dark; each bar carries its hour and count as a tooltip and for screen readers.
 */
export function HourChart(p: { data: { hour: string; count: number }[]; label: string; fmtHour: (iso: string) => string }) {
  const W = 480;
  const H = 140;
  const pad = { l: 28, r: 6, t: 8, b: 20 };
  const max = Math.max(1, ...p.data.map((d) => d.count));
  const step = (W - pad.l - pad.r) / Math.max(1, p.data.length);
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - v / max);
  const ticks = max <= 4 ? Array.from({ length: max + 1 }, (_, i) => i) : [0, Math.round(max / 2), max];
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={p.label} data-testid="hour-chart">
      {ticks.map((v) => (
        <g>
          <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} class="chart-grid" />
          <text x={pad.l - 4} y={y(v) + 4} text-anchor="end" class="chart-text">
            {v}
          </text>
        </g>
      ))}
      {p.data.map((d, i) => {
        const h = y(0) - y(d.count);
        return (
          <rect x={pad.l + i * step + 1} y={y(d.count)} width={Math.max(1, step - 2)} height={h} rx={2} class="chart-bar" data-count={d.count}>
            <title>{`${p.fmtHour(d.hour)}: ${d.count}`}</title>
          </rect>
        );
      })}
      {p.data.map((d, i) =>
        (i % 6 === 0 && i < p.data.length - 3) || i === p.data.length - 1 ? (
          <text x={i === p.data.length - 1 ? W - pad.r : pad.l + i * step + step / 2} y={H - 5} text-anchor={i === p.data.length - 1 ? 'end' : 'middle'} class="chart-text">
            {p.fmtHour(d.hour)}
          </text>
        ) : null,
      )}
    </svg>
  );
}
