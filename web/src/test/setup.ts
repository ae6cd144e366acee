import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts between tests only when it can find a global afterEach; say it explicitly.
afterEach(() => cleanup());
