import type { HourBucket } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';

const W = 480;
const H = 150;
const BASE = 128;

/** Approved sales by hour as plain SVG bars; the numbers are also in a table for screen readers. */
export function HourChart({ hours }: { hours: HourBucket[] }) {
  const max = Math.max(1, ...hours.map((h) => h.cents));
  const busiest = hours.reduce((a, b) => (b.cents > a.cents ? b : a), hours[0]!);
  const bw = W / 24;
  return (
    <figure className="hour-chart">
      <figcaption>Sales by hour</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={busiest.cents > 0 ? `Sales by hour; busiest ${busiest.hour}:00 with ${money(busiest.cents)}.` : 'Sales by hour: no sales yet.'} data-testid="hour-chart">
        <line x1="0" x2={W} y1={BASE} y2={BASE} className="hour-axis" />
        {hours.map((h) => {
          const bh = Math.round((h.cents / max) * (BASE - 8));
          return (
            <g key={h.hour}>
              {h.cents > 0 && <rect x={h.hour * bw + 3} y={BASE - bh} width={bw - 6} height={bh} rx="2" className="hour-bar" data-hour={h.hour} />}
              {h.hour % 3 === 0 && (
                <text x={h.hour * bw + bw / 2} y={H - 4} textAnchor="middle" className="hour-label">
                  {h.hour}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>Sales by hour</caption>
        <tbody>
          {hours
            .filter((h) => h.count > 0)
            .map((h) => (
              <tr key={h.hour}>
                <th scope="row">{h.hour}:00</th>
                <td>{money(h.cents)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
