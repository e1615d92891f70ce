/**
 * The fields of the Account Properties card (spec 1 §2 Account Properties card,
 * §3 Account, §4, §5, §6, §9), for the Create account form (`mode: 'create'`)
 * and the Edit account screen (`mode: 'edit'`). Render it inside an antd `Form`
 * whose values have the `TPushAccountPropertiesRequest` shape without `version`
 * (`section-forms.ts`, `PropertiesValues`):
 *
 * MMA class; add-on parent account (add-on class only); display name; customer
 * (autocomplete over `GET /customers`); URL name; description; contact name,
 * email, phone 1, phone 2; maintainer (DevOps, Contact or Custom); billing
 * period and amount; switches managed, white glove, auto test; auto test branch.
 *
 * Rules, validated on blur with the messages of spec 1 §5: 'Account name is
 * required', 'Account URL name is required', 'Add-on parent account is
 * required' (add-ons), 'Contact name is required', 'Contact email is
 * required', billing amount at least 1. Other rules (URL name characters, email
 * format, maxima) are the server's and come back as field errors of the push.
 *
 * Behaviour (spec 1 §4, §5):
 * - switching class asks for confirmation (`ClassSelect`); the add-on class
 *   forces managed, auto test and white glove off and clears the branch, and
 *   those switches stay off; leaving it clears the parent;
 * - picking a parent sets the name to '{parent} add-on';
 * - Customer Production is offered only to group CustomerProductionAccess; an
 *   existing account cannot move into or out of the add-on class (the server
 *   refuses it), so mode 'edit' offers only classes on its side;
 * - mode 'create': the URL name follows the display name
 *   (`toUrlFriendlyName`) until the user types a URL name of their own.
 */
import { useRef } from 'react';
import { AutoComplete, Col, Form, Input, InputNumber, Row, Select, Switch, type AutoCompleteProps } from 'antd';
import { BILLING_PERIODS, CLASS_ADD_ON, toUrlFriendlyName, type TAccountDetail } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { useBranches } from '../../software-versions/api/queries';
import { useCustomers } from '../../catalogues/api/lookups';
import { ClassSelect } from './ClassSelect';
import { MaintainerInput } from './MaintainerInput';
import { useParentCandidates } from './api/queries';
import { ADD_ON_FORCED, addOnName, classOptions } from './properties-rules';

export interface PropertiesFieldsProps {
  mode: 'create' | 'edit';
  /** Every field disabled (no write permission). */
  disabled?: boolean;
  /** Mode 'edit': the account (its id is no parent candidate; its class decides the class choices; its parent labels the picker). */
  account?: Pick<TAccountDetail, 'id' | 'classId' | 'parent'>;
}

const col = { xs: 24, md: 12, xl: 8 };
const wideCol = { xs: 24, xl: 16 };
const switchCol = { xs: 8, md: 4, xl: 3 };
const onBlur = 'onBlur';

/** Case-insensitive "contains" filter of the autocompletes. */
const contains = (input: string, option?: { value?: unknown }) => String(option?.value ?? '').toLowerCase().includes(input.toLowerCase());

/**
 * The customer field: an autocomplete of the known customers (`GET /lookup/customers`, asked while the field can
 * be edited). The list is read here, so its answer renders this field, not the card (issue 26); Form.Item's
 * value, onChange and id pass through.
 */
function CustomerInput({ disabled, ...props }: AutoCompleteProps & { disabled: boolean }) {
  const customers = useCustomers(!disabled);
  return <AutoComplete {...props} options={(customers.data ?? []).map((name) => ({ value: name }))} filterOption={contains} disabled={disabled} maxLength={200} />;
}

/** The auto-test branch: an autocomplete of the branches' names, off while Auto test is off; reads both itself, as {@link CustomerInput}. */
function AutoTestBranchInput({ disabled, ...props }: AutoCompleteProps & { disabled: boolean }) {
  const autoTest = Form.useWatch('autoTest', Form.useFormInstance()) as boolean | undefined;
  const branches = useBranches();
  const branchNames = [...new Set((branches.data ?? []).map((b) => b.name))].map((name) => ({ value: name }));
  return (
    <AutoComplete
      {...props}
      options={branchNames}
      filterOption={contains}
      disabled={disabled || !autoTest}
      placeholder={autoTest ? 'Branch to test' : 'Auto test is off'}
      allowClear
    />
  );
}

export function PropertiesFields({ mode, disabled = false, account }: PropertiesFieldsProps) {
  const form = Form.useFormInstance();
  const { hasCustomerProductionAccess } = useAuth();
  const classId = Form.useWatch('classId', form) as number | undefined;
  const addOn = classId === CLASS_ADD_ON;
  const parents = useParentCandidates(addOn);
  // Create mode: the URL name last derived from the display name; a URL name the user typed is kept.
  const derivedUrl = useRef<string>(undefined);

  const classChoices = classOptions({ mode, currentClassId: mode === 'edit' ? (account?.classId ?? classId) : classId, hasCustomerProductionAccess });
  const parentOptions = (parents.data ?? []).filter((p) => p.id !== account?.id).map((p) => ({ value: p.id, label: p.name }));
  if (account?.parent && !parentOptions.some((p) => p.value === account.parent!.id)) {
    parentOptions.unshift({ value: account.parent.id, label: account.parent.name });
  }

  const deriveUrl = (name: string) => {
    if (mode !== 'create') return;
    const current = (form.getFieldValue('urlFriendlyName') as string | undefined) ?? '';
    if (current !== '' && current !== derivedUrl.current) return;
    derivedUrl.current = toUrlFriendlyName(name);
    form.setFieldValue('urlFriendlyName', derivedUrl.current);
  };

  const onClassChosen = (next: number) => {
    if (next === CLASS_ADD_ON) form.setFieldsValue(ADD_ON_FORCED);
    else form.setFieldValue('parentId', null);
  };

  const onParentChange = (parentId: number | undefined) => {
    const parent = parentOptions.find((p) => p.value === parentId);
    if (!parent) return;
    const name = addOnName(parent.label);
    form.setFieldValue('name', name);
    deriveUrl(name);
    void form.validateFields(['name', 'urlFriendlyName']).catch(() => undefined);
  };

  return (
    <>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="MMA class" name="classId">
            <ClassSelect options={classChoices} disabled={disabled || (mode === 'edit' && classChoices.length < 2)} onChosen={onClassChosen} />
          </Form.Item>
        </Col>
        {addOn && (
          <Col {...col}>
            <Form.Item
              label="Add-on parent account"
              name="parentId"
              validateTrigger={onBlur}
              rules={[{ required: true, message: 'Add-on parent account is required' }]}
            >
              <Select
                placeholder="Choose the parent account"
                loading={parents.isLoading}
                disabled={disabled}
                showSearch={{ optionFilterProp: 'label' }}
                options={parentOptions}
                onChange={onParentChange}
              />
            </Form.Item>
          </Col>
        )}
        <Col {...col}>
          <Form.Item
            label="Display name"
            name="name"
            validateTrigger={onBlur}
            rules={[{ required: true, whitespace: true, message: 'Account name is required' }]}
          >
            <Input maxLength={200} disabled={disabled} onChange={(e) => deriveUrl(e.target.value)} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="URL name"
            name="urlFriendlyName"
            validateTrigger={onBlur}
            rules={[{ required: true, whitespace: true, message: 'Account URL name is required' }]}
          >
            <Input maxLength={100} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item label="Customer" name="customer">
            <CustomerInput disabled={disabled} />
          </Form.Item>
        </Col>
        <Col {...wideCol}>
          <Form.Item label="Description" name="description">
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={2000} disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item
            label="Contact name"
            name={['contact', 'name']}
            validateTrigger={onBlur}
            rules={[{ required: true, whitespace: true, message: 'Contact name is required' }]}
          >
            <Input maxLength={200} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Contact email"
            name={['contact', 'email']}
            validateTrigger={onBlur}
            rules={[{ required: true, whitespace: true, message: 'Contact email is required' }]}
          >
            <Input type="email" maxLength={254} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item label="Phone 1" name={['contact', 'phone1']}>
            <Input maxLength={50} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item label="Phone 2" name={['contact', 'phone2']}>
            <Input maxLength={50} disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="Maintainer" name="maintainer">
            <MaintainerInput disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item label="Billing period" name={['billing', 'period']}>
            <Select options={BILLING_PERIODS.map((p) => ({ value: p, label: p }))} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item
            label="Billing amount"
            name={['billing', 'amount']}
            validateTrigger={onBlur}
            rules={[
              { required: true, message: 'Billing amount is required' },
              { type: 'number', min: 1, message: 'Billing amount must be at least 1' },
            ]}
          >
            <InputNumber style={{ width: '100%' }} disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16} align="bottom">
        <Col {...switchCol}>
          <Form.Item label="Managed" name="managed" valuePropName="checked" tooltip={addOn ? 'Add-on accounts are unmanaged' : undefined}>
            <Switch disabled={disabled || addOn} />
          </Form.Item>
        </Col>
        <Col {...switchCol}>
          <Form.Item label="White glove" name="whiteGlove" valuePropName="checked">
            <Switch disabled={disabled || addOn} />
          </Form.Item>
        </Col>
        <Col {...switchCol}>
          <Form.Item label="Auto test" name="autoTest" valuePropName="checked">
            <Switch disabled={disabled || addOn} onChange={(on: boolean) => !on && form.setFieldValue('autoTestBranch', null)} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Auto test branch"
            name="autoTestBranch"
            getValueProps={(v: string | null | undefined) => ({ value: v ?? '' })}
            normalize={(v: string | undefined) => v || null}
          >
            <AutoTestBranchInput disabled={disabled || addOn} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
