/** The class choices, the add-on rules and the maintainer modes of the Account Properties card (spec 1 §2, §4, §5, §6, §9). */
import { describe, expect, it } from 'vitest';
import { DEVOPS_EMAIL } from '@fleet/contracts';
import { ADD_ON_FORCED, addOnName, classOptions, maintainerMode } from './properties-rules';

const names = (options: { label: string }[]) => options.map((o) => o.label);

describe('classOptions', () => {
  it('offers Customer Production only to group CustomerProductionAccess, or when it is already the class', () => {
    expect(names(classOptions({ mode: 'create', currentClassId: 1, hasCustomerProductionAccess: true }))).toContain('Customer Production');
    expect(names(classOptions({ mode: 'create', currentClassId: 1, hasCustomerProductionAccess: false }))).not.toContain('Customer Production');
    expect(names(classOptions({ mode: 'edit', currentClassId: 5, hasCustomerProductionAccess: false }))).toContain('Customer Production');
  });

  it('keeps an existing account on its side of the add-on class; a new one may choose any', () => {
    expect(names(classOptions({ mode: 'create', currentClassId: 1, hasCustomerProductionAccess: false }))).toEqual([
      'Experimental',
      'Internal Testing',
      'Internal Production',
      'Customer Staging',
      'On Premise',
      'Add-on Account',
    ]);
    expect(names(classOptions({ mode: 'edit', currentClassId: 2, hasCustomerProductionAccess: true }))).not.toContain('Add-on Account');
    expect(names(classOptions({ mode: 'edit', currentClassId: 200, hasCustomerProductionAccess: true }))).toEqual(['Add-on Account']);
  });
});

describe('add-on rules', () => {
  it('forces managed, auto test and white glove off and clears the branch; names the add-on after its parent', () => {
    expect(ADD_ON_FORCED).toEqual({ managed: false, autoTest: false, whiteGlove: false, autoTestBranch: null });
    expect(addOnName('Contoso Telecom')).toBe('Contoso Telecom add-on');
  });
});

describe('maintainerMode', () => {
  it('reads blank and the DevOps address as DevOps, the contact email as Contact, anything else as Custom', () => {
    expect(maintainerMode('', 'pat@example.com')).toBe('DevOps');
    expect(maintainerMode(DEVOPS_EMAIL, 'pat@example.com')).toBe('DevOps');
    expect(maintainerMode('Pat@Example.com', 'pat@example.com')).toBe('Contact');
    expect(maintainerMode('night@example.com', 'pat@example.com')).toBe('Custom');
    expect(maintainerMode('night@example.com', '')).toBe('Custom');
  });
});
