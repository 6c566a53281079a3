import { AxisBottom, AxisLeft, type TickRendererProps } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import type { ChartData } from "../analytics-dto";

/**
 * One Analytics chart as server-rendered SVG from visx primitives (DESIGN decision 19): `role="img"` named by its
 * title and described by its summary; every series has its own colour (≥ 3:1 against white) and its own fill
 * pattern, so adjacent segments differ without colour; the data table beside it carries the exact figures.
 */

const WIDTH = 640;
const HEIGHT = 280;
const MARGIN = { top: 20, right: 12, bottom: 56, left: 48 };

/** Colours of the series, each ≥ 4.5:1 against white (Tailwind 700s). */
const palette = ["#1d4ed8", "#b45309", "#047857", "#7e22ce", "#be123c", "#334155"];
const seriesColours: Record<string, string> = {
  hot: "#be123c",
  warm: "#b45309",
  cold: "#1d4ed8",
  converted: "#047857",
};

export function seriesColour(key: string, index: number): string {
  return seriesColours[key] ?? palette[index % palette.length]!;
}

const patternId = (chart: string, index: number) => `patron-${chart}-${index}`;

/** Solid, diagonal stripes, dots, horizontal stripes, cross-hatch… over the series' colour. */
function SeriesPattern({ id, colour, index }: { id: string; colour: string; index: number }) {
  const kind = index % 5;
  return (
    <pattern id={id} width="8" height="8" patternUnits="userSpaceOnUse">
      <rect width="8" height="8" fill={colour} />
      {kind === 1 && <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" strokeWidth="1.5" />}
      {kind === 2 && <circle cx="4" cy="4" r="1.6" fill="#fff" />}
      {kind === 3 && <path d="M0,4 h8" stroke="#fff" strokeWidth="1.5" />}
      {kind === 4 && <path d="M0,0 l8,8 M8,0 l-8,8" stroke="#fff" strokeWidth="1.2" />}
    </pattern>
  );
}

export function SeriesSwatch({ chart, index }: { chart: string; index: number }) {
  return (
    <svg aria-hidden width="16" height="16" className="shrink-0 rounded-sm border border-slate-400">
      <rect width="16" height="16" fill={`url(#${patternId(chart, index)})`} />
    </svg>
  );
}

const integer = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0 });

// Tick labels as plain <text>: visx's default <Text> measures strings in the browser (a hidden SVG added to the
// page) and could lay out differently from the server's render.
function LeftTick({ x, y, formattedValue }: TickRendererProps) {
  return (
    <text x={x} y={y} dx={-4} dy={4} fill="#334155" fontSize={11} textAnchor="end">
      {formattedValue}
    </text>
  );
}

function BottomTick({ x, y, formattedValue }: TickRendererProps) {
  return (
    <text x={x} y={y} dy={4} fill="#334155" fontSize={11} textAnchor="middle">
      {formattedValue}
    </text>
  );
}

/** Splits a label into lines of at most `width` characters at spaces. */
export function wrapLabel(label: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of label.split(" ")) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

function wrappedTick(width: number) {
  return function WrappedBottomTick({ x, y, formattedValue }: TickRendererProps) {
    return (
      <text x={x} y={y} dy={4} fill="#334155" fontSize={11} textAnchor="middle">
        {wrapLabel(String(formattedValue ?? ""), width).map((line, index) => (
          <tspan key={index} x={x} dy={index === 0 ? 4 : 13}>
            {line}
          </tspan>
        ))}
      </text>
    );
  };
}

function SlantedBottomTick({ x, y, formattedValue }: TickRendererProps) {
  return (
    <text
      x={x}
      y={y}
      dy={2}
      fill="#334155"
      fontSize={11}
      textAnchor="end"
      transform={`rotate(-35 ${x} ${y})`}
    >
      {formattedValue}
    </text>
  );
}

export function AnalyticsChartSvg({ chart }: { chart: ChartData }) {
  const titleId = `grafico-${chart.key}-titulo`;
  const descId = `grafico-${chart.key}-descripcion`;
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const stacked = chart.layout === "stacked";
  const totals = chart.rows.map((row) =>
    stacked ? row.values.reduce((a, b) => a + b, 0) : Math.max(0, ...row.values),
  );
  const max = Math.max(1, ...totals);

  const x = scaleBand<string>({
    domain: chart.rows.map((row) => row.key),
    range: [0, innerWidth],
    padding: chart.rows.length > 20 ? 0.15 : 0.25,
  });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const inner = scaleBand<string>({
    domain: chart.series.map((item) => item.key),
    range: [0, x.bandwidth()],
    padding: 0.1,
  });
  const labelOf = new Map(chart.rows.map((row) => [row.key, row.label]));
  // At most ~10 labels on the category axis (a 90-day chart labels every 9th day).
  const step = Math.max(1, Math.ceil(chart.rows.length / 10));
  const tickValues = chart.rows.filter((_, index) => index % step === 0).map((row) => row.key);
  const directLabels = !stacked && chart.rows.length * chart.series.length <= 24;
  // Counts: whole-number gridlines only (a maximum of 1 would otherwise get 0,2 … 0,8).
  const yTicks = y.ticks(Math.min(5, max)).filter((tick) => Number.isInteger(tick));
  // Slanted category labels when they would not fit side by side.
  const longestLabel = Math.max(...chart.rows.map((row) => row.label.length));
  const perLine = Math.max(4, Math.floor(x.step() / 6.5));
  // Dates are slanted; words (treatments, buckets) wrap onto lines under their bar.
  const categoryTick =
    longestLabel <= perLine
      ? BottomTick
      : chart.layout === "stacked"
        ? SlantedBottomTick
        : wrappedTick(perLine);

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      className="h-auto w-full max-w-2xl"
      data-testid={`chart-svg-${chart.key}`}
    >
      <title id={titleId}>{chart.title}</title>
      <desc id={descId}>{chart.summary}</desc>
      <defs>
        {chart.series.map((item, index) => (
          <SeriesPattern
            key={item.key}
            id={patternId(chart.key, index)}
            colour={seriesColour(item.key, index)}
            index={index}
          />
        ))}
      </defs>
      <Group left={MARGIN.left} top={MARGIN.top}>
        {yTicks.map((tick) => (
          <line key={tick} x1={0} x2={innerWidth} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
        ))}
        {chart.rows.map((row) => {
          const left = x(row.key) ?? 0;
          if (stacked) {
            let base = 0;
            return (
              <Group key={row.key} left={left}>
                {row.values.map((value, index) => {
                  const top = y(base + value);
                  const height = y(base) - top;
                  base += value;
                  return value > 0 ? (
                    <Bar
                      key={chart.series[index]!.key}
                      x={0}
                      y={top}
                      width={x.bandwidth()}
                      height={height}
                      fill={`url(#${patternId(chart.key, index)})`}
                      stroke="#fff"
                      strokeWidth={0.5}
                    />
                  ) : null;
                })}
              </Group>
            );
          }
          return (
            <Group key={row.key} left={left}>
              {row.values.map((value, index) => {
                const key = chart.series[index]!.key;
                const barX = inner(key) ?? 0;
                const top = y(value);
                return (
                  <Group key={key}>
                    <Bar
                      x={barX}
                      y={top}
                      width={inner.bandwidth()}
                      height={innerHeight - top}
                      fill={`url(#${patternId(chart.key, index)})`}
                    />
                    {directLabels && (
                      <text
                        x={barX + inner.bandwidth() / 2}
                        y={top - 4}
                        textAnchor="middle"
                        fontSize={11}
                        fill="#0f172a"
                      >
                        {integer.format(value)}
                      </text>
                    )}
                  </Group>
                );
              })}
            </Group>
          );
        })}
        <AxisLeft
          scale={y}
          tickValues={yTicks}
          tickFormat={(value) => integer.format(Number(value))}
          stroke="#475569"
          tickStroke="#475569"
          tickComponent={LeftTick}
        />
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickValues={tickValues}
          tickFormat={(key) => labelOf.get(String(key)) ?? String(key)}
          stroke="#475569"
          tickStroke="#475569"
          tickComponent={categoryTick}
        />
      </Group>
    </svg>
  );
}
