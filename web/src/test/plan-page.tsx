import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PlanPage from '../app/routes/PlanPage.tsx';
import { SessionProvider } from '../app/session/SessionProvider.tsx';

/** The planning page with the real session and parsers (no storage), and a user to drive it. */
export function renderPlanPage() {
  render(
    <SessionProvider>
      <PlanPage />
    </SessionProvider>,
  );
  return userEvent.setup();
}
