/**
 * The scope every machine count of the console names (issue 24 point 4): the
 * server counts it in one place (`modules/machines/fleet-counts.ts`): the top
 * bar, the accounts footer (for the listed accounts) and the filtered Machines
 * viewer agree. Every class is counted for every user (spec 1 §2, spec 3
 * §2.9); a user outside group CustomerProductionAccess cannot open the
 * Customer Production machines the counts include (`TMachineStats.restricted`).
 */
export const FLEET_COUNT_SCOPE = 'live machines of live accounts';

/** The rule that restricts a class for some users (spec 1 §6), named beside the scope. */
export const HIDDEN_CLASS_RULE = 'Customer Production counted for everyone, opened only by group CustomerProductionAccess';
