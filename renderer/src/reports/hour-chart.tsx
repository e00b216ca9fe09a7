import type { HourBucket } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

const W = 480;
const H = 172;
/** The bars run from TOP (the busiest hour) down to BASE; the value scale sits above TOP, the hours below BASE. */
const TOP = 26;
const BASE = 140;

/**
 * Sales by hour as plain SVG bars with a value scale (the busiest hour's amount on the top
 * line, half of it on the middle line); the numbers are also in a table for screen
 * readers. The label sizes are in the chart's own units, so print rules can enlarge them
 * for an 80 mm roll, where the chart is drawn at about half its screen width.
 */
export function HourChart({ hours, withCash }: { hours: HourBucket[]; withCash?: boolean }) {
  const max = Math.max(1, ...hours.map((h) => h.cents));
  const busiest = hours.reduce((a, b) => (b.cents > a.cents ? b : a), hours[0]!);
  const any = busiest.cents > 0;
  const bw = W / 24;
  const caption = withCash ? 'Sales by hour (card + cash)' : 'Sales by hour';
  return (
    <figure className="hour-chart">
      <figcaption>{caption}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={any ? `${caption}; busiest ${busiest.hour}:00 with ${money(busiest.cents)}.` : `${caption}: no sales yet.`} data-testid="hour-chart">
        {any && (
          <g>
            <line x1="0" x2={W} y1={TOP} y2={TOP} className="hour-grid" />
            <line x1="0" x2={W} y1={(TOP + BASE) / 2} y2={(TOP + BASE) / 2} className="hour-grid" />
          </g>
        )}
        <line x1="0" x2={W} y1={BASE} y2={BASE} className="hour-axis" />
        {hours.map((h) => {
          const bh = Math.round((h.cents / max) * (BASE - TOP));
          return (
            <g key={h.hour}>
              {h.cents > 0 && <rect x={h.hour * bw + 3} y={BASE - bh} width={bw - 6} height={bh} rx="2" className="hour-bar" data-hour={h.hour} />}
              {h.hour % 3 === 0 && (
                <text x={h.hour * bw + bw / 2} y={H - 6} textAnchor="middle" className="hour-label">
                  {`${h.hour}h`}
                </text>
              )}
            </g>
          );
        })}
        {/* The scale's amounts last, with a halo in the background colour, so a bar never hides them. */}
        {any && (
          <g className="hour-scale">
            <text x="2" y={TOP - 6} className="hour-label">
              {money(max)}
            </text>
            <text x="2" y={(TOP + BASE) / 2 - 6} className="hour-label">
              {money(Math.round(max / 2))}
            </text>
          </g>
        )}
      </svg>
      <table className="sr-only">
        <caption>{caption}</caption>
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
