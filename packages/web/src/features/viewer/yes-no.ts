/** A flag as the viewers show it (spec 2 §2.7, §2.9): Yes or No. */
export const yesNo = (value: boolean): string => (value ? 'Yes' : 'No');
