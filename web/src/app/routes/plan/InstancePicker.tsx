import { InstanceCombobox } from '../../../components/InstanceCombobox.tsx';
import { inputTitle } from './input-text.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * The instance the plan is for, beside the data it applies to (it used to sit in the what-if
 * section, far below the inputs): its EBS caps decide which limit binds.
 */
export function InstancePicker({ session }: { session: PlanSessionView }) {
  const { state, dispatch, instanceTypes, catalog, labelledRun, applyRunConfig } = session;
  return (
    <div className="field-row field-row--wide" id="instance">
      <InstanceCombobox
        label="Instance type for the plan"
        description="Its EBS bandwidth and IOPS caps, instance store and family (for upgrade advice)."
        value={state.settings.instanceType}
        types={instanceTypes}
        catalogError={catalog.error}
        onChange={(instanceType) => dispatch({ type: 'settings-changed', settings: { instanceType } })}
      />
      {labelledRun ? (
        <button
          type="button"
          className="btn btn--small align-end"
          onClick={() => applyRunConfig(labelledRun)}
        >
          Use the configuration of {inputTitle(labelledRun)}
        </button>
      ) : null}
    </div>
  );
}
