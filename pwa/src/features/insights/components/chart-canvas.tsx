import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { useEffect, useRef } from 'react';

// Only what the insights page draws: bars, lines and the heat map's matrix (Chart.js tree-shakes the rest).
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
  MatrixController,
  MatrixElement,
);

/**
 * A Chart.js chart on a canvas. The canvas is an image named by `summary` (the chart's text summary,
 * also shown beside it); its figures are in the table view each chart offers.
 */
export function ChartCanvas({ config, summary }: { config: ChartConfiguration; summary: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const chart = new Chart(context, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
    });
    return () => chart.destroy();
  }, [config]);
  return (
    <div className="insight__canvas">
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
