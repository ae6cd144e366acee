// The reference for P10/P11: the smallest app built from the same stack as web/ (React 19,
// Recharts 3, Vite), showing one line chart and one bar chart. Built by bench/goals/web.mjs with
// the versions installed in web/.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const data = Array.from({ length: 20 }, (_, i) => ({
  x: i,
  a: Math.round(Math.sin(i) * 100 + 200),
  b: Math.round(Math.cos(i) * 80 + 150),
}));

function App() {
  return (
    <main style={{ maxWidth: 800, margin: '0 auto', fontFamily: 'system-ui, sans-serif' }}>
      <h1>Storage plan</h1>
      <p>Read and write IOPS over the run, and the cost of each candidate volume.</p>
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data}>
          <CartesianGrid />
          <XAxis dataKey="x" type="number" />
          <YAxis />
          <Tooltip />
          <Legend />
          <Line dataKey="a" isAnimationActive={false} />
          <Line dataKey="b" isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
      <ResponsiveContainer width="100%" height={280}>
        <BarChart data={data}>
          <XAxis dataKey="x" />
          <YAxis />
          <Tooltip />
          <Bar dataKey="a" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
