// Developers: register (the key shown once), sign in with a key, ask for use of a summary, watch each request's
// status change live, copy a ready-to-run request for each summary, see their usage over time and their quota,
// rotate the key, see their history, delete the registration.
import { ApiError, graphql, operation, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, formatNumber } from '../i18n.js';
import { t, tOf } from '../developer/messages.js';
import { credential, forget, keep, remembered } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import {
  actionButton,
  alertBox,
  announce,
  checkbox,
  field,
  form,
  keyOnce,
  section,
  statusBadge,
  summaryTitle,
  table,
} from '../ui.js';
import { requestSnippets } from '../snippets.js';
import { usageFigure } from '../usage-chart.js';

/** @import * as Ops from '../gql/operations' */
/** @typedef {Ops.DeveloperRequestFieldsFragment} UseRequest */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

/** Days of usage the page draws. */
const USAGE_DAYS = 30;

const REQUEST_FIELDS = /* GraphQL */ `
  fragment DeveloperRequestFields on UseRequest {
    id
    status
    statusLabel
    purpose
    note
    createdAt
    updatedAt
    endpoint {
      name
      title
      subject
      apiUrl
    }
    history {
      from
      to
      actor
      at
      note
    }
  }
`;

/** @type {Operation<Ops.DeveloperAccountQuery, Ops.DeveloperAccountQueryVariables>} */
const ACCOUNT = operation(/* GraphQL */ `
  query DeveloperAccount($usageDays: Int!) {
    me {
      id
      name
      contactEmail
      createdAt
      disabledAt
      rateLimitPoints
      history {
        kind
        actor
        detail
        at
      }
      usage(days: $usageDays) {
        day
        operations
      }
      summaryReads(first: 1) {
        totalCount
        edges {
          node {
            at
            endpoint {
              endpointId
              title
              subject
            }
          }
        }
      }
    }
    summaryEndpoints {
      endpointId
      name
      title
      subject
      apiUrl
      status
      statusLabel
    }
    myUseRequests {
      ...DeveloperRequestFields
    }
  }
  ${REQUEST_FIELDS}
`);

/** @type {Operation<Ops.SignInQuery, Ops.SignInQueryVariables>} */
const SIGN_IN = operation(/* GraphQL */ `
  query SignIn {
    me {
      id
    }
  }
`);

/** @type {Operation<Ops.RegisterMutation, Ops.RegisterMutationVariables>} */
const REGISTER = operation(/* GraphQL */ `
  mutation Register($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        name
      }
    }
  }
`);

/** @type {Operation<Ops.AskForUseMutation, Ops.AskForUseMutationVariables>} */
const ASK = operation(/* GraphQL */ `
  mutation AskForUse($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        ...DeveloperRequestFields
      }
    }
  }
  ${REQUEST_FIELDS}
`);

/** @type {Operation<Ops.RotateKeyMutation, Ops.RotateKeyMutationVariables>} */
const ROTATE = operation(/* GraphQL */ `
  mutation RotateKey($input: RotateApiKeyInput) {
    rotateApiKey(input: $input) {
      apiKey
      previousKeysExpireAt
    }
  }
`);

/** @type {Operation<Ops.DeleteRegistrationMutation, Ops.DeleteRegistrationMutationVariables>} */
const DELETE = operation(/* GraphQL */ `
  mutation DeleteRegistration {
    deleteMyRegistration {
      deletedAt
    }
  }
`);

/** @type {Operation<Ops.MyRequestChangesSubscription, Ops.MyRequestChangesSubscriptionVariables>} */
const CHANGES = operation(/* GraphQL */ `
  subscription MyRequestChanges {
    useRequestChanged {
      ...DeveloperRequestFields
    }
  }
  ${REQUEST_FIELDS}
`);

/** What a client runs to read a summary: the one document each card's snippets send. @param {number} endpointId */
const summaryQuery = (endpointId) =>
  `query { summaryEndpoint(endpointId: ${endpointId}) { endpointId name status payload } }`;

/**
 * The client's quota as its answers' RateLimit fields state it: `"client";q=6000;w=60` (its own) or `"default";…`.
 * @param {string | null} policy the RateLimit-Policy field
 * @param {string | null} state the RateLimit field
 * @returns {{ quota: number, windowS: number, remaining: number | undefined, own: boolean } | undefined}
 */
function quotaFrom(policy, state) {
  const member = /"(client|default)";q=(\d+);w=(\d+)/.exec(policy ?? '');
  if (member === null) return undefined;
  const [, name, quota, windowS] = member;
  const left = new RegExp(`"${name}";r=(\\d+)`).exec(state ?? '');
  return {
    quota: Number(quota),
    windowS: Number(windowS),
    remaining: left === null ? undefined : Number(left[1]),
    own: name === 'client',
  };
}

/** The first request to try with a new key: who the server takes it to be. */
const VIEWER_QUERY = 'query { viewer { kind name } }';

/** A rate-limit window for the reader: "60 s", "1 h". @param {number} seconds */
function formatWindow(seconds) {
  if (seconds % 3600 === 0) return t('windowHours', { hours: seconds / 3600 });
  if (seconds % 60 === 0 && seconds >= 60) return t('windowMinutes', { minutes: seconds / 60 });
  return t('windowSeconds', { seconds });
}

/** Statuses from which the client may ask (again). */
const ASKABLE = new Set(['NOT_REQUESTED', 'REJECTED', 'REVOKED']);

/** @param {HTMLElement} main */
export function renderDeveloper(main) {
  /** @type {(() => void) | undefined} */
  let stopLive;
  const view = h('div', {});
  replace(main, h('h1', {}, t('developerTitle')), h('p', { class: 'lead' }, t('developerIntro')), view);

  const signedOut = (/** @type {HTMLElement | null} */ message = null) => {
    stopLive?.();
    const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'organization' });
    const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'email' });
    const key = h('input', { name: 'key', type: 'password', required: true, autocomplete: 'off', spellcheck: 'false' });
    const rememberRegistered = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox' }));
    const rememberSignIn = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox' }));
    replace(
      view,
      message,
      h(
        'div',
        { class: 'columns' },
        section(
          t('registerHeading'),
          form(
            async () => {
              const { registerClient } = await graphql(REGISTER, {
                input: {
                  name: /** @type {HTMLInputElement} */ (name).value,
                  contactEmail: /** @type {HTMLInputElement} */ (email).value,
                },
              });
              keep('client', registerClient.apiKey, rememberRegistered.checked);
              const next = h(
                'button',
                { type: 'button', class: 'primary', onclick: () => void signedIn() },
                t('continue'),
              );
              replace(
                view,
                keyOnce(registerClient.apiKey, 2),
                requestSnippets({ label: t('tryKey'), query: VIEWER_QUERY, key: () => registerClient.apiKey }),
                h('p', { class: 'help' }, t('snippetKeyHelp')),
                h('p', {}, next),
              );
              next.focus();
            },
            field(t('appName'), name),
            field(t('contactEmail'), email),
            checkbox(t('rememberMe'), rememberRegistered),
            h('button', { type: 'submit', class: 'primary' }, t('register')),
          ),
        ),
        section(
          t('signInHeading'),
          form(
            async () => {
              const secret = /** @type {HTMLInputElement} */ (key).value.trim();
              // Checked before it is kept: a mistyped key is refused here, not on every later request.
              try {
                await graphql(SIGN_IN, {}, secret);
              } catch (error) {
                // The API's words are about the Authorization header, which the reader never wrote.
                throw error instanceof ApiError && error.code === 'UNAUTHENTICATED' ? new Error(t('wrongKey')) : error;
              }
              keep('client', secret, rememberSignIn.checked);
              await signedIn();
            },
            field(t('apiKey'), key),
            checkbox(t('rememberMe'), rememberSignIn),
            h('button', { type: 'submit' }, t('signIn')),
          ),
        ),
      ),
    );
  };

  const signedIn = async () => {
    const token = credential('client');
    if (token === undefined) return signedOut();
    replace(view, h('p', { role: 'status' }, t('loading')));
    /** @type {Ops.DeveloperAccountQuery} */
    let data;
    /** @type {ReturnType<typeof quotaFrom>} */
    let quota;
    try {
      data = await graphql(ACCOUNT, { usageDays: USAGE_DAYS }, token, {
        onResponse: (response) =>
          (quota = quotaFrom(response.headers.get('ratelimit-policy'), response.headers.get('ratelimit'))),
      });
    } catch (error) {
      // Only the server saying the key is not (or no longer) a key forgets it: a dropped connection, a busy or
      // restarting server, a rate limit or a disabled registration leave it for the next attempt.
      if (error instanceof ApiError && error.code === 'UNAUTHENTICATED') {
        forget('client');
        return signedOut(h('p', { class: 'alert', role: 'alert' }, t('keyRefused')));
      }
      return replace(
        view,
        alertBox(error),
        h(
          'p',
          { class: 'actions' },
          h('button', { type: 'button', class: 'primary', onclick: () => void signedIn() }, t('retry')),
          ' ',
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                forget('client');
                signedOut();
              },
            },
            t('signOut'),
          ),
        ),
      );
    }
    showSimulatedNotice();
    if (data.me === null) {
      forget('client');
      return signedOut(h('p', { class: 'alert', role: 'alert' }, t('keyRefused')));
    }
    const { me } = data;
    /** @type {Map<string, UseRequest>} latest request per endpoint name */
    const requests = new Map();
    for (const request of [...data.myUseRequests].reverse()) requests.set(request.endpoint.name, request);
    /** @type {Map<string, (request: UseRequest | undefined) => void>} */
    const updaters = new Map();
    const liveState = h('p', { class: 'help', role: 'status' });

    const cards = data.summaryEndpoints.map((endpoint) => {
      const badge = h('span', {});
      const details = h('div', {});
      const ask = h('div', {});
      const update = (/** @type {UseRequest | undefined} */ request) => {
        const status = request?.status ?? endpoint.status;
        replace(badge, statusBadge(status, request?.statusLabel ?? endpoint.statusLabel));
        replace(
          details,
          request?.purpose ? h('p', {}, h('strong', {}, `${t('yourPurpose')}: `), request.purpose) : null,
          request?.note ? h('p', { class: 'note' }, h('strong', {}, `${t('operatorNote')}: `), request.note) : null,
          request?.history?.length
            ? h(
                'details',
                {},
                h('summary', {}, t('historyHeading')),
                h(
                  'ol',
                  { class: 'history' },
                  request.history.map((event) =>
                    h(
                      'li',
                      {},
                      `${formatDateTime(event.at)} · ${event.from} → ${event.to} · ${event.actor}`,
                      event.note ? ` · ${event.note}` : '',
                    ),
                  ),
                ),
              )
            : null,
        );
        if (!ASKABLE.has(status)) return replace(ask);
        if (ask.childElementCount > 0) return;
        const purpose = h('textarea', { required: true, rows: 2, maxlength: 2000 });
        replace(
          ask,
          form(
            async () => {
              const { requestEndpointUse } = await graphql(
                ASK,
                {
                  input: {
                    endpointId: endpoint.endpointId,
                    purpose: /** @type {HTMLTextAreaElement} */ (purpose).value,
                  },
                },
                token,
              );
              requests.set(endpoint.name, requestEndpointUse.useRequest);
              update(requestEndpointUse.useRequest);
              badge.focus();
            },
            field(t('purpose'), purpose, t('purposeHelp')),
            h('button', { type: 'submit', class: 'primary' }, t('sendRequest')),
          ),
        );
      };
      updaters.set(endpoint.name, update);
      update(requests.get(endpoint.name));
      badge.tabIndex = -1;
      return h(
        'article',
        { class: 'card', 'data-endpoint': endpoint.name },
        h('h3', {}, summaryTitle(endpoint), ' ', h('span', { class: 'mono muted' }, endpoint.name)),
        h('p', {}, `${t('colStatus')}: `, badge, ' · ', t('endpointNumber', { number: endpoint.endpointId })),
        details,
        ask,
        requestSnippets({
          label: t('snippetHeading', { number: endpoint.endpointId }),
          query: summaryQuery(endpoint.endpointId),
          key: () => credential('client'),
        }),
      );
    });

    const rotateErrors = h('div', {});
    const rotated = h('div', {});
    const grace = h(
      'select',
      {},
      h('option', { value: '0' }, t('graceNow')),
      h('option', { value: '3600' }, t('graceHour')),
      h('option', { value: '86400', selected: true }, t('graceDay')),
      h('option', { value: '604800' }, t('graceWeek')),
    );
    const deleteErrors = h('div', {});
    const deleteArea = h('div', {});
    const askDelete = () => {
      const confirm = actionButton(
        t('deleteConfirm'),
        async () => {
          const { deleteMyRegistration } = await graphql(DELETE, {}, credential('client'));
          forget('client');
          signedOut(
            h(
              'p',
              { class: 'notice', role: 'status' },
              t('deleted', { at: formatDateTime(deleteMyRegistration.deletedAt) }),
            ),
          );
        },
        deleteErrors,
        { class: 'danger' },
      );
      replace(
        deleteArea,
        confirm,
        ' ',
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              replace(deleteArea, askButton);
              askButton.focus();
            },
          },
          t('cancel'),
        ),
      );
      confirm.focus();
    };
    const askButton = h('button', { type: 'button', class: 'danger-outline', onclick: askDelete }, t('deleteAsk'));
    replace(deleteArea, askButton);

    replace(
      view,
      h(
        'div',
        { class: 'account' },
        h('p', {}, t('signedInAs', { name: me.name }), ' · ', h('span', { class: 'mono' }, me.id)),
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              forget('client');
              signedOut();
            },
          },
          t('signOut'),
        ),
      ),
      section(
        t('requestsHeading'),
        liveState,
        h('p', { class: 'help' }, t('snippetKeyHelp')),
        h('div', { class: 'cards wide-cards' }, cards),
      ),
      section(
        t('rotateHeading'),
        h('p', {}, t('rotateHelp')),
        field(t('grace'), grace),
        actionButton(
          t('rotate'),
          async () => {
            const { rotateApiKey } = await graphql(
              ROTATE,
              { input: { graceS: Number(/** @type {HTMLSelectElement} */ (grace).value) } },
              credential('client'),
            );
            keep('client', rotateApiKey.apiKey, remembered('client'));
            replace(
              rotated,
              keyOnce(rotateApiKey.apiKey),
              h('p', {}, t('previousKeysExpire', { at: formatDateTime(rotateApiKey.previousKeysExpireAt) })),
            );
            // The stream was opened with the old key; follow with the new one.
            stopLive?.();
            stopLive = watch();
          },
          rotateErrors,
        ),
        rotateErrors,
        rotated,
      ),
      section(
        t('usageHeading'),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, t('quota')),
          h(
            'dd',
            { 'data-quota': quota?.quota ?? me.rateLimitPoints ?? '' },
            // Every answer that spent a budget states it; one that states none was not limited.
            quota === undefined
              ? t('quotaNone')
              : [
                  t('quotaPerWindow', { quota: formatNumber(quota.quota), window: formatWindow(quota.windowS) }),
                  ' ',
                  h('span', { class: 'muted' }, quota.own ? t('quotaOwn') : t('quotaServerDefault')),
                ],
          ),
          quota?.remaining === undefined
            ? null
            : [h('dt', {}, t('quotaRemaining')), h('dd', {}, formatNumber(quota.remaining))],
          h('dt', {}, t('summaryReads')),
          h(
            'dd',
            {},
            formatNumber(me.summaryReads.totalCount),
            me.summaryReads.edges[0] === undefined
              ? null
              : [
                  ' · ',
                  t('lastRead', {
                    endpoint: summaryTitle(me.summaryReads.edges[0].node.endpoint),
                    at: formatDateTime(me.summaryReads.edges[0].node.at),
                  }),
                ],
          ),
          h('dt', {}, t('registeredAt')),
          h('dd', {}, formatDateTime(me.createdAt)),
        ),
        usageFigure(t('usageCaption', { days: USAGE_DAYS }), me.usage, USAGE_DAYS),
        h('p', { class: 'help' }, t('usageHelp')),
      ),
      section(
        t('historyHeading'),
        table(
          t('historyCaption'),
          [t('colWhen'), t('colWhat'), t('colWho'), t('colDetail')],
          me.history.map((event) => [
            formatDateTime(event.at),
            tOf('events', event.kind),
            event.actor,
            event.detail ?? '',
          ]),
          { stack: true, hideCaption: true },
        ),
      ),
      section(t('deleteHeading'), h('p', {}, t('deleteHelp')), deleteArea, deleteErrors),
    );
    focusHeading();

    const watch = () =>
      subscribe(CHANGES, {
        token: credential('client'),
        onState: (state) => (liveState.textContent = state === 'live' ? t('liveStatus') : t('liveDisconnected')),
        onNext: ({ useRequestChanged }) => {
          const request = useRequestChanged;
          requests.set(request.endpoint.name, request);
          updaters.get(request.endpoint.name)?.(request);
          announce(
            t('statusChangedAnnounce', {
              endpoint: summaryTitle(request.endpoint),
              status: request.statusLabel,
            }),
          );
        },
      });
    stopLive = watch();
  };

  if (credential('client') === undefined) signedOut();
  else void signedIn();
  return () => stopLive?.();
}
