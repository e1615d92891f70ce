/**
 * The scope every machine count of the console names (issue 24 point 4): the
 * server counts it in one place (`modules/machines/fleet-counts.ts`): the top
 * bar, the accounts footer (for the listed accounts) and the filtered Machines
 * viewer agree.
 */
export const FLEET_COUNT_SCOPE = 'live machines of live accounts you can see';

/** The rule that hides a class from some users (DESIGN §5), named beside the scope. */
export const HIDDEN_CLASS_RULE = 'Customer Production only with group CustomerProductionAccess';
