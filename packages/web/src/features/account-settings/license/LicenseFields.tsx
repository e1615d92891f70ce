/**
 * The fields of the License Settings card (spec 1 §2 License Settings card, §3
 * licenseConfig, §4, §5, §9), for the Create account form (`mode: 'create'`)
 * and the Edit account screen (`mode: 'edit'`). Render it inside an antd `Form`
 * whose values have the `TLicenseConfigInput` shape (`section-forms.ts`):
 *
 * server instance policy, expiration date (an ISO string in the form, a date
 * picker on screen; cleared for none), Maximum Credits, cloud instance type
 * (`GET /cloud/instance-types`; blank means the first one) and Redis instance
 * type (optional), active switch, features and reporting categories (names),
 * the maximum object counts, and for add-on accounts the add-on site name and
 * area category name.
 *
 * Rules (spec 1 §4, §5), validated on blur: AllInOne forces maxSites to 1 and
 * disables it; Maximum Credits 1 to 1000; maxSites at least 1, other counts at
 * least 0; 'Add-on Site Name is required' and 'Add-on Area Category Name is
 * required' for add-on accounts. Unknown features or instance types are the
 * server's to refuse (field errors of the push).
 *
 * Each list and each watched value is read by the control that shows it (the
 * selects below, the maxSites count), not by the card: an answer or a changed
 * policy renders that control, not the card's 500-odd components (issue 26).
 */
import { useEffect, type ReactNode } from 'react';
import type { SelectProps } from 'antd';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { DatePicker } from '../../../components/LazyDatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { INSTANCE_POLICIES, MAX_CLOUD_CREDITS, MIN_CLOUD_CREDITS, type TInstancePolicy, type TInstanceType } from '@fleet/contracts';
import { useInstanceTypes } from '../../machines/api/queries';
import { useFeatures, useRedisInstanceTypes, useReportingCategories } from '../../catalogues/api/lookups';
import { INSTANCE_POLICY_LABELS, LICENSE_COUNTS } from './license-rules';

export interface LicenseFieldsProps {
  mode: 'create' | 'edit';
  /** The account is of the add-on class (200): the add-on names are shown and required. */
  addOn: boolean;
  /** Every field disabled (no write permission, or no template chosen yet on the create form). */
  disabled?: boolean;
}

const col = { xs: 24, md: 12, xl: 8 };
const countCol = { xs: 12, md: 8, xl: 6, xxl: 4 };
const onBlur = 'onBlur';
const DATE_FORMAT = 'YYYY-MM-DD';
const CREDITS_MESSAGE = `Maximum Credits must be between ${MIN_CLOUD_CREDITS} and ${MAX_CLOUD_CREDITS}`;

/** A picked date keeps the time of day of the date it replaces (or of now): picking a day changes only the day. */
function withTimeOf(day: Dayjs, previous: string | null | undefined): Dayjs {
  const base = previous ? dayjs(previous) : dayjs();
  return day.hour(base.hour()).minute(base.minute()).second(base.second()).millisecond(base.millisecond());
}

const typeLabel = (t: TInstanceType) =>
  t.memorySize !== null ? `${t.name} (${t.memorySize} GB memory)` : `${t.name} (${t.storageSize} GB, ${t.cloudCreditCost} credits/h)`;

/**
 * The label of a chosen instance type: its option's, else 'Loading…' while the list loads (not the bare id an
 * unmatched value shows), else the id (a type the list no longer has).
 */
const typeChoiceLabel = (loading: boolean) => (choice: { label?: ReactNode; value?: string | number }) =>
  choice.label ?? (loading ? 'Loading…' : String(choice.value));

/** An instance type select with the types' options; Form.Item's value, onChange and id pass through. */
function TypeSelect({ types, ...props }: SelectProps & { types: { isLoading: boolean; data?: TInstanceType[] } }) {
  return (
    <Select
      {...props}
      loading={types.isLoading}
      labelRender={typeChoiceLabel(types.isLoading)}
      options={(types.data ?? []).map((t) => ({ value: t.id, label: typeLabel(t) }))}
    />
  );
}

function CloudInstanceTypeSelect(props: SelectProps) {
  return <TypeSelect {...props} types={useInstanceTypes(true)} />;
}

function RedisInstanceTypeSelect(props: SelectProps) {
  return <TypeSelect {...props} types={useRedisInstanceTypes()} />;
}

/** A multiple select of names from a catalogue list (features, reporting categories); Form.Item's props pass through. */
function NamesSelect({ list, ...props }: SelectProps & { list: { isLoading: boolean; data?: { name: string }[] } }) {
  return <Select {...props} mode="multiple" loading={list.isLoading} options={(list.data ?? []).map((f) => ({ value: f.name, label: f.name }))} />;
}

function FeaturesSelect(props: SelectProps) {
  return <NamesSelect {...props} list={useFeatures()} />;
}

function ReportingCategoriesSelect(props: SelectProps) {
  return <NamesSelect {...props} list={useReportingCategories()} />;
}

type LicenseCountProps = { count: (typeof LICENSE_COUNTS)[number]; disabled: boolean };

/**
 * The maxSites count: AllInOne keeps it at 1 (spec 1 §4), whether the policy was chosen here or loaded from a
 * template, and locks it.
 */
function MaxSitesCount(props: LicenseCountProps) {
  const form = Form.useFormInstance();
  const allInOne = (Form.useWatch('instancePolicy', form) as TInstancePolicy | undefined) === 'AllInOne';
  const maxSites = Form.useWatch('maxSites', form) as number | null | undefined;
  useEffect(() => {
    if (allInOne && maxSites !== undefined && maxSites !== 1) form.setFieldValue('maxSites', 1);
  }, [allInOne, maxSites, form]);
  return <LicenseCount {...props} locked={allInOne} />;
}

/** One of the maximum counts (`locked`: disabled, with a tooltip saying why). */
function LicenseCount({ count, disabled, locked = false }: LicenseCountProps & { locked?: boolean }) {
  return (
    <Col {...countCol}>
      <Form.Item
        label={count.label}
        name={count.name}
        validateTrigger={onBlur}
        tooltip={locked ? 'AllInOne has exactly one site' : undefined}
        rules={[
          { required: true, message: `${count.label} is required` },
          { type: 'number', min: count.min, message: `${count.label} must be at least ${count.min}` },
        ]}
      >
        <InputNumber precision={0} style={{ width: '100%' }} disabled={disabled || locked} />
      </Form.Item>
    </Col>
  );
}

export function LicenseFields({ mode, addOn, disabled = false }: LicenseFieldsProps) {
  return (
    <>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item
            label="Server instance policy"
            name="instancePolicy"
            tooltip={mode === 'edit' ? 'A new policy applies to machines created from now on; existing machines are not re-planned' : undefined}
          >
            <Select disabled={disabled} options={INSTANCE_POLICIES.map((p) => ({ value: p, label: INSTANCE_POLICY_LABELS[p] }))} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item
            label="Expiration date"
            name="expirationTime"
            getValueProps={(v: string | null | undefined) => ({ value: v ? dayjs(v) : null })}
            normalize={(d: Dayjs | null | undefined, previous: string | null | undefined) => (d ? withTimeOf(d, previous).toISOString() : null)}
          >
            <DatePicker format={DATE_FORMAT} placeholder="Never" style={{ width: '100%' }} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item
            label="Maximum Credits"
            name="cloudCredits"
            validateTrigger={onBlur}
            rules={[
              { required: true, message: 'Maximum Credits is required' },
              { type: 'number', min: MIN_CLOUD_CREDITS, max: MAX_CLOUD_CREDITS, message: CREDITS_MESSAGE },
            ]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Form.Item label="Active" name="isActive" valuePropName="checked">
            <Switch disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col {...col}>
          <Form.Item label="Cloud instance type" name="cloudInstanceType" normalize={(v: number | undefined) => v ?? null}>
            <CloudInstanceTypeSelect placeholder="The first instance type" disabled={disabled} showSearch={{ optionFilterProp: 'label' }} />
          </Form.Item>
        </Col>
        <Col {...col}>
          <Form.Item label="Redis instance type" name="redisCloudInstanceType" normalize={(v: number | undefined) => v ?? null}>
            <RedisInstanceTypeSelect placeholder="No Redis" allowClear disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Features" name="features">
            <FeaturesSelect placeholder="No features" disabled={disabled} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Reporting categories" name="reportingCategories">
            <ReportingCategoriesSelect placeholder="No reporting categories" disabled={disabled} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        {LICENSE_COUNTS.map((count) => (
          count.name === 'maxSites' ? <MaxSitesCount key={count.name} count={count} disabled={disabled} /> : <LicenseCount key={count.name} count={count} disabled={disabled} />
        ))}
      </Row>
      {addOn && (
        <Row gutter={16}>
          <Col {...col}>
            <Form.Item
              label="Add-on Site Name"
              name="addOnSiteName"
              validateTrigger={onBlur}
              rules={[{ required: true, whitespace: true, message: 'Add-on Site Name is required' }]}
            >
              <Input maxLength={200} disabled={disabled} />
            </Form.Item>
          </Col>
          <Col {...col}>
            <Form.Item
              label="Add-on Area Category Name"
              name="addOnAreaCategoryName"
              validateTrigger={onBlur}
              rules={[{ required: true, whitespace: true, message: 'Add-on Area Category Name is required' }]}
            >
              <Input maxLength={200} disabled={disabled} />
            </Form.Item>
          </Col>
        </Row>
      )}
    </>
  );
}
