/** Constants and URL helpers shared by the test set-up and the tests. */
export const TEMPLATE_DB = 'fleet_template';
export const TEST_DATA_KEY = 'ab'.repeat(32);
export const TEST_JWT_SECRET = 'test-jwt-secret-test-jwt-secret-32';

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
