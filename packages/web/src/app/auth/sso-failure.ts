/**
 * The login page's words for a single sign-on the server's callback refused
 * (issue 28 point 2): the callback sends the browser to `/#/login?ssoError=<why>`
 * (`TSsoFailure`), and the page says what happened in its own text, never in
 * text taken from the URL.
 */
import type { TSsoFailure } from '@fleet/contracts';

/** What the login page says of a refused single sign-on (`?ssoError=`), `provider` being the provider's name (`OIDC_NAME`). */
export function ssoFailureText(why: string, provider = 'the single sign-on provider'): string | undefined {
  const Provider = provider.charAt(0).toUpperCase() + provider.slice(1);
  const texts: Record<TSsoFailure, string> = {
    state: 'The sign-in took too long, was used already or was started in another browser. Start it again.',
    refused: `${Provider} did not sign you in (the sign-in was cancelled or refused there).`,
    failed: `The sign-in with ${provider} failed a security check. Start it again.`,
    'no-access': `Your groups at ${provider} grant no access to Fleet Console. Ask an administrator for access.`,
    disabled: 'Your user is disabled in Fleet Console. Ask an administrator.',
    busy: 'Another sign-in of your user was under way. Sign in again.',
    unreachable: `${Provider} cannot be reached right now. Try again in a minute.`,
  };
  return Object.hasOwn(texts, why) ? texts[why as TSsoFailure] : undefined;
}
