import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SliderField } from './SliderField.tsx';

/** A size field as the what-if controls show it: 1 GiB to 64 TiB, log scale. */
function SizeField({ start, scale }: { start: number; scale: 'linear' | 'log' }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <SliderField
        label="Size"
        value={value}
        min={1}
        max={65536}
        step={1}
        unit="GiB"
        scale={scale}
        onChange={setValue}
      />
      <output aria-label="value">{value}</output>
    </>
  );
}

const slider = () => screen.getByRole('slider', { name: 'Size (slider)' }) as HTMLInputElement;
const slide = (position: number) => fireEvent.change(slider(), { target: { value: String(position) } });
const value = () => Number(screen.getByLabelText('value').textContent);

describe('SliderField, log scale (1 GiB – 64 TiB)', () => {
  it.each([
    // position of 1000 → GiB: 1 × 65536^(p/1000), rounded to the 1 GiB step
    [0, 1],
    [500, 256],
    [625, 1024],
    [750, 4096],
    [1000, 65536],
  ])('position %i is %i GiB', (position, gib) => {
    render(<SizeField start={100} scale="log" />);
    slide(position);
    expect(value()).toBe(gib);
  });

  it('a typed value puts the slider at its log position and is announced in GiB', () => {
    render(<SizeField start={1024} scale="log" />);
    expect(slider().value).toBe('625');
    expect(slider().getAttribute('aria-valuetext')).toBe('1024 GiB');
    fireEvent.change(screen.getByLabelText('Size'), { target: { value: '16384' } });
    expect(slider().value).toBe('875');
  });

  it('every step of the slider below 1 TiB is at most a few percent apart (linear: 1,000 GiB in 1.5 % of its travel)', () => {
    render(<SizeField start={100} scale="log" />);
    slide(400);
    const a = value();
    slide(401);
    expect(value() / a).toBeLessThan(1.03);
    expect(Number(slider().max)).toBe(1000);
  });

  it('linear scale: the slider is the value itself', () => {
    render(<SizeField start={100} scale="linear" />);
    slide(4096);
    expect(value()).toBe(4096);
    expect(slider().getAttribute('aria-valuetext')).toBeNull();
  });
});
