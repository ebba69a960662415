// Developers: register (the key shown once), sign in with a key, ask for use of a summary, watch each request's
// status change live, rotate the key, see their quota and history, delete the registration.
import { endpointNumber, graphql, operation, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, t, tOf } from '../i18n.js';
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

/** @import * as Ops from '../gql/operations' */
/** @typedef {Ops.DeveloperRequestFieldsFragment} UseRequest */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

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
  query DeveloperAccount {
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
    }
    summaryEndpoints {
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
              replace(view, keyOnce(registerClient.apiKey), h('p', {}, next));
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
              await graphql(SIGN_IN, {}, secret);
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
    try {
      data = await graphql(ACCOUNT, {}, token);
    } catch (error) {
      forget('client');
      return signedOut(alertBox(error));
    }
    showSimulatedNotice();
    if (data.me === null) {
      forget('client');
      return signedOut();
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
                    endpointId: endpointNumber(endpoint.apiUrl),
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
        h('p', {}, `${t('colStatus')}: `, badge),
        details,
        ask,
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
      section(t('requestsHeading'), liveState, h('div', { class: 'cards' }, cards)),
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
        t('quotaHeading'),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, t('quota')),
          h('dd', {}, me.rateLimitPoints === null ? t('quotaDefault') : String(me.rateLimitPoints)),
          h('dt', {}, t('registeredAt')),
          h('dd', {}, formatDateTime(me.createdAt)),
        ),
        table(
          t('historyHeading'),
          [t('colWhen'), t('colWhat'), t('colWho'), t('colDetail')],
          me.history.map((event) => [
            formatDateTime(event.at),
            tOf('events', event.kind),
            event.actor,
            event.detail ?? '',
          ]),
          { stack: true },
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
