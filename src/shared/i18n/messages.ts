// One message catalogue for the site and the widgets, in English, Portuguese (Brazilian) and Spanish.
// Keys are grouped by area; `{name}` marks a value filled in by t(). A key ending in `.one` is the
// singular of the key without it (tp() picks it for a count of 1). Messages are plain text: the
// caller escapes them like any other text.

export const LOCALES = ['en', 'pt', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const en = {
  // Languages (each in its own language, shown in the language switcher)
  'lang.en': 'English',
  'lang.pt': 'Português',
  'lang.es': 'Español',
  'lang.label': 'Language',

  // Navigation
  'nav.home': 'Home',
  'nav.schedule': 'Schedule',
  'nav.speakers': 'Speakers',
  'nav.sponsors': 'Sponsors',
  'nav.register': 'Register',
  'nav.location': 'Location',
  'nav.faq': 'FAQ',
  'nav.menu': 'Menu',
  'nav.main': 'Main',
  'nav.skipToContent': 'Skip to content',

  // Common
  'common.loading': 'Loading…',
  'common.close': 'Close',
  'common.showMore': 'Show more',
  'common.showLess': 'Show less',
  'common.opensInNewTab': '(opens in a new tab)',
  'common.poweredBy': 'Powered by Podium',
  'common.retry': 'Try again',
  'common.share': 'Share',
  'common.copyLink': 'Copy link',
  'common.linkCopied': 'Link copied',

  // Event and dates
  'event.dates': '{start} – {end}',
  'event.location': 'Location',
  'event.directions': 'Get directions',
  'event.map': 'Map of {place}',
  'event.online': 'Online',
  'event.faq': 'Frequently asked questions',
  'event.private': 'Private event',
  'date.today': 'Today',
  'date.tomorrow': 'Tomorrow',
  'date.yesterday': 'Yesterday',
  'date.day': 'Day {number}',
  'date.timeZone': 'Time zone',
  'date.timesIn': 'Times are in {zone}',

  // Schedule
  'schedule.title': 'Schedule',
  'schedule.grid': 'Grid',
  'schedule.list': 'List',
  'schedule.view': 'View',
  'schedule.compact': 'Compact',
  'schedule.allDays': 'All days',
  'schedule.allRooms': 'All rooms',
  'schedule.allTracks': 'All tracks',
  'schedule.filters': 'Filters',
  'schedule.filterByTrack': 'Filter by track',
  'schedule.filterByRoom': 'Filter by room',
  'schedule.filterByDay': 'Filter by day',
  'schedule.day': 'Day',
  'schedule.room': 'Room',
  'schedule.track': 'Track',
  'schedule.time': 'Time',
  'schedule.noRoom': 'Other',
  'schedule.search': 'Search',
  'schedule.searchPlaceholder': 'Search sessions, speakers, topics',
  'schedule.eventTime': 'Event time',
  'schedule.myTime': 'My time',
  'schedule.favourites': 'Favourites',
  'schedule.mySchedule': 'My schedule',
  'schedule.addFavourite': 'Add to favourites',
  'schedule.removeFavourite': 'Remove from favourites',
  'schedule.addFavouriteNamed': 'Add “{name}” to favourites',
  'schedule.removeFavouriteNamed': 'Remove “{name}” from favourites',
  'schedule.noFavourites': 'No favourites yet. Use the star on a session to add it to your schedule.',
  'schedule.favouritesNotSaved': 'Your favourites cannot be saved in this browser.',
  'schedule.downloadCalendar': 'Download calendar',
  'schedule.downloadCalendarHint': 'An .ics file for Google Calendar, Outlook or Apple Calendar',
  'schedule.addToCalendar': 'Add to calendar',
  'schedule.now': 'Now',
  'schedule.next': 'Next',
  'schedule.live': 'Live',
  'schedule.ended': 'Ended',
  'schedule.nothingNow': 'Nothing is happening right now.',
  'schedule.startsIn': 'Starts in {minutes} minutes',
  'schedule.startsIn.one': 'Starts in 1 minute',
  'schedule.noSessions': 'No sessions match these filters.',
  'schedule.empty': 'The schedule has not been published yet.',
  'schedule.clearFilters': 'Clear filters',
  'schedule.sessions': '{count} sessions',
  'schedule.sessions.one': '1 session',
  'schedule.results': '{count} of {total} sessions',
  'schedule.speakers': 'Speakers',
  'schedule.capacity': 'Capacity: {count}',
  'schedule.highlight': 'Highlight',
  'schedule.watch': 'Watch the stream',
  'schedule.details': 'Details',
  'schedule.loading': 'Loading the schedule…',
  'schedule.loadError': 'The schedule could not be loaded.',

  // Speakers
  'speakers.title': 'Speakers',
  'speakers.empty': 'Speakers will be announced soon.',
  'speakers.sessions': 'Sessions',
  'speakers.photo': 'Photo of {name}',

  // Sponsors
  'sponsors.title': 'Sponsors',
  'sponsors.empty': 'No sponsors yet.',
  'embed.title': 'Embed this event',
  'embed.intro':
    'Copy a snippet into any web page: one script tag and an element. The widgets follow your page’s styles through the --podium-* custom properties.',
  'embed.registration': 'Registration form',
  'embed.agenda': 'Program',
  'embed.gate': 'Access-code gate (private events)',
  'sponsors.visit': 'Visit {name}',
  'sponsors.become': 'Become a sponsor',
  'sponsors.tier.diamond': 'Diamond',
  'sponsors.tier.platinum': 'Platinum',
  'sponsors.tier.gold': 'Gold',
  'sponsors.tier.silver': 'Silver',
  'sponsors.tier.bronze': 'Bronze',
  'sponsors.tier.partners': 'Partners',
  'sponsors.tier.supporters': 'Supporters',
  'sponsors.tier.media': 'Media partners',
  'sponsors.tier.other': 'Sponsors',

  // Registration form
  'form.register': 'Register',
  'form.title': 'Registration',
  'form.firstName': 'First name',
  'form.lastName': 'Last name',
  'form.email': 'E-mail',
  'form.required': 'Required',
  'form.optional': 'optional',
  'form.select': 'Choose…',
  'form.yes': 'Yes',
  'form.no': 'No',
  'form.attendeeKind': 'I am attending as',
  'form.rsvp': 'Will you attend?',
  'form.fieldRequired': 'This field is required.',
  'form.invalidEmail': 'Enter a valid e-mail address, like name@example.com.',
  'form.tooLong': 'Use at most {max} characters.',
  'form.errorSummary': 'Please correct the following:',
  'form.submit': 'Register',
  'form.submitting': 'Submitting…',
  'form.registered': 'Registered!',
  'form.registeredText': 'You are registered for {event}. We sent the details to {email}.',
  'form.waitingList': 'You are on the waiting list',
  'form.waitingListText': 'The event is full. We will let you know if a place becomes available.',
  'form.alreadyRegistered': 'This e-mail address is already registered.',
  'form.closed': 'Registration is closed.',
  'form.full': 'Registration is full.',
  'form.notOpen': 'Registration is not open yet.',
  'form.ended': 'Registration has ended.',
  'form.inviteCode': 'Invite code',
  'form.inviteRequired': 'You need an invite code to register.',
  'form.inviteInvalid': 'This invite code is not valid.',
  'form.consent': 'I agree that my data will be processed to manage my participation in this event.',
  'form.consentRequired': 'You need to agree to continue.',
  'form.tryAgain': 'Something went wrong. Please try again.',
  'form.networkError': 'Could not connect. Check your connection and try again.',
  'form.tooManyRequests': 'Too many attempts. Please wait a moment and try again.',

  // Access gate (private events)
  'gate.title': 'This event is private',
  'gate.intro': 'Enter the access code you received to see this event.',
  'gate.accessCode': 'Access code',
  'gate.unlock': 'Unlock',
  'gate.checking': 'Checking…',
  'gate.wrongCode': 'Wrong code. Check it and try again.',
  'gate.invalidCode': 'The access code is a number from 1 to 9999.',
  'gate.tooManyTries': 'Too many tries — try again in {minutes} minutes.',
  'gate.tooManyTries.one': 'Too many tries — try again in 1 minute.',
  'gate.robotCheck': 'Checking you are not a robot…',
  'gate.robotWhy':
    'Many wrong codes were tried for this event, so your browser first solves a short puzzle (about a second) before your code is checked.',
  'gate.robotNoScript': 'This check needs JavaScript: turn it on, or try again in an hour.',
  'gate.robotFailed': 'The check could not be completed. Try again.',

  // Choosing a new password (/podium-password, the link of person.recover's e-mail)
  'password.title': 'Choose a new password',
  'password.intro': 'Type your new password twice. Once it is set, you are signed out everywhere you were signed in.',
  'password.noCode': 'To choose a new password, open the link from the e-mail we sent you.',
  'password.new': 'New password',
  'password.again': 'Type the new password again',
  'password.rules': 'At least 8 characters, at most 200.',
  'password.submit': 'Set the password',
  'password.tooShort': 'The password is too short: use at least 8 characters.',
  'password.tooLong': 'The password is too long: use at most 200 characters.',
  'password.mismatch': 'The two passwords are not the same. Type them again.',
  'password.doneTitle': 'Password set',
  'password.done': 'Your password is set. You can now sign in with it.',
  'password.linkUsed': 'This link was already used or has expired: each link works once, for one hour.',
  'password.newLink':
    'To get a new one, ask for a password link again (“Forgot your password?”) and open the newest e-mail.',
  'password.tooMany': 'Too many tries. Wait {seconds} seconds and try again.',
  'password.tooMany.one': 'Too many tries. Wait 1 second and try again.',
  'password.otherSite': 'This form was sent from another site, so it was refused. Open the link from the e-mail again.',
  'password.failed': 'The password could not be set right now. Please try again in a moment.',
  'password.askTitle': 'Get a link to set your password',
  'password.askIntro': 'Type the e-mail address of your account and we will send it a link to choose a new password.',
  'password.email': 'E-mail address',
  'password.askSubmit': 'Send me a link',
  'password.emailMissing': 'Type your e-mail address.',
  'password.emailInvalid': 'This is not an e-mail address (like name@example.com): check it and try again.',
  'password.sentTitle': 'Check your e-mail',
  'password.sent': 'If an account uses this address, we sent it a link. It works once, within an hour.',
  'password.newLinkBelow': 'To get a new one, ask for a link below and open the newest e-mail.',
  'password.askTooMany': 'Too many links were asked for. Wait {minutes} minutes and try again.',
  'password.askTooMany.one': 'Too many links were asked for. Wait 1 minute and try again.',
  'password.askOtherSite': 'This form was sent from another site, so it was refused. Type your address here again.',
  'password.askFailed': 'The link could not be sent right now. Please try again in a moment.',

  // Errors and 404
  'error.notFound': 'Page not found',
  'error.notFoundText': 'The page you are looking for does not exist or has moved.',
  'error.eventNotFound': 'Event not found',
  'error.generic': 'Something went wrong',
  'error.genericText': 'Please try again in a moment.',
  'error.forbidden': 'You do not have access to this page.',
  'error.backToEvent': 'Back to the event',
  'error.backToDirectory': 'Back to the directory',

  // Directory of a company's events
  'directory.title': 'Events',
  'directory.upcoming': 'Upcoming events',
  'directory.past': 'Past events',
  'directory.happeningNow': 'Happening now',
  'directory.empty': 'No events yet',
  'directory.viewEvent': 'View event',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const pt: Messages = {
  'lang.en': 'English',
  'lang.pt': 'Português',
  'lang.es': 'Español',
  'lang.label': 'Idioma',

  'nav.home': 'Início',
  'nav.schedule': 'Programação',
  'nav.speakers': 'Palestrantes',
  'nav.sponsors': 'Patrocinadores',
  'nav.register': 'Inscrição',
  'nav.location': 'Local',
  'nav.faq': 'Perguntas frequentes',
  'nav.menu': 'Menu',
  'nav.main': 'Principal',
  'nav.skipToContent': 'Pular para o conteúdo',

  'common.loading': 'Carregando…',
  'common.close': 'Fechar',
  'common.showMore': 'Mostrar mais',
  'common.showLess': 'Mostrar menos',
  'common.opensInNewTab': '(abre em uma nova aba)',
  'common.poweredBy': 'Feito com Podium',
  'common.retry': 'Tentar novamente',
  'common.share': 'Compartilhar',
  'common.copyLink': 'Copiar link',
  'common.linkCopied': 'Link copiado',

  'event.dates': '{start} – {end}',
  'event.location': 'Local',
  'event.directions': 'Como chegar',
  'event.map': 'Mapa de {place}',
  'event.online': 'On-line',
  'event.faq': 'Perguntas frequentes',
  'event.private': 'Evento privado',
  'date.today': 'Hoje',
  'date.tomorrow': 'Amanhã',
  'date.yesterday': 'Ontem',
  'date.day': 'Dia {number}',
  'date.timeZone': 'Fuso horário',
  'date.timesIn': 'Horários em {zone}',

  'schedule.title': 'Programação',
  'schedule.grid': 'Grade',
  'schedule.list': 'Lista',
  'schedule.view': 'Visualização',
  'schedule.compact': 'Compacto',
  'schedule.allDays': 'Todos os dias',
  'schedule.allRooms': 'Todas as salas',
  'schedule.allTracks': 'Todas as trilhas',
  'schedule.filters': 'Filtros',
  'schedule.filterByTrack': 'Filtrar por trilha',
  'schedule.filterByRoom': 'Filtrar por sala',
  'schedule.filterByDay': 'Filtrar por dia',
  'schedule.day': 'Dia',
  'schedule.room': 'Sala',
  'schedule.track': 'Trilha',
  'schedule.time': 'Horário',
  'schedule.noRoom': 'Outros',
  'schedule.search': 'Buscar',
  'schedule.searchPlaceholder': 'Buscar sessões, palestrantes, temas',
  'schedule.eventTime': 'Horário do evento',
  'schedule.myTime': 'Meu horário',
  'schedule.favourites': 'Favoritos',
  'schedule.mySchedule': 'Minha agenda',
  'schedule.addFavourite': 'Adicionar aos favoritos',
  'schedule.removeFavourite': 'Remover dos favoritos',
  'schedule.addFavouriteNamed': 'Adicionar “{name}” aos favoritos',
  'schedule.removeFavouriteNamed': 'Remover “{name}” dos favoritos',
  'schedule.noFavourites': 'Nenhum favorito ainda. Use a estrela de uma sessão para incluí-la na sua agenda.',
  'schedule.favouritesNotSaved': 'Não é possível salvar seus favoritos neste navegador.',
  'schedule.downloadCalendar': 'Baixar calendário',
  'schedule.downloadCalendarHint': 'Um arquivo .ics para Google Agenda, Outlook ou Calendário da Apple',
  'schedule.addToCalendar': 'Adicionar à agenda',
  'schedule.now': 'Agora',
  'schedule.next': 'A seguir',
  'schedule.live': 'Ao vivo',
  'schedule.ended': 'Encerrada',
  'schedule.nothingNow': 'Nada acontecendo neste momento.',
  'schedule.startsIn': 'Começa em {minutes} minutos',
  'schedule.startsIn.one': 'Começa em 1 minuto',
  'schedule.noSessions': 'Nenhuma sessão corresponde a esses filtros.',
  'schedule.empty': 'A programação ainda não foi publicada.',
  'schedule.clearFilters': 'Limpar filtros',
  'schedule.sessions': '{count} sessões',
  'schedule.sessions.one': '1 sessão',
  'schedule.results': '{count} de {total} sessões',
  'schedule.speakers': 'Palestrantes',
  'schedule.capacity': 'Capacidade: {count}',
  'schedule.highlight': 'Destaque',
  'schedule.watch': 'Assistir à transmissão',
  'schedule.details': 'Detalhes',
  'schedule.loading': 'Carregando a programação…',
  'schedule.loadError': 'Não foi possível carregar a programação.',

  'speakers.title': 'Palestrantes',
  'speakers.empty': 'Os palestrantes serão anunciados em breve.',
  'speakers.sessions': 'Sessões',
  'speakers.photo': 'Foto de {name}',

  'sponsors.title': 'Patrocinadores',
  'sponsors.empty': 'Ainda não há patrocinadores.',
  'embed.title': 'Incorporar este evento',
  'embed.intro':
    'Copie um trecho para qualquer página: uma tag de script e um elemento. Os widgets seguem o estilo da sua página pelas propriedades --podium-*.',
  'embed.registration': 'Formulário de inscrição',
  'embed.agenda': 'Programação',
  'embed.gate': 'Acesso por código (eventos privados)',
  'sponsors.visit': 'Visitar {name}',
  'sponsors.become': 'Seja um patrocinador',
  'sponsors.tier.diamond': 'Diamante',
  'sponsors.tier.platinum': 'Platina',
  'sponsors.tier.gold': 'Ouro',
  'sponsors.tier.silver': 'Prata',
  'sponsors.tier.bronze': 'Bronze',
  'sponsors.tier.partners': 'Parceiros',
  'sponsors.tier.supporters': 'Apoiadores',
  'sponsors.tier.media': 'Parceiros de mídia',
  'sponsors.tier.other': 'Patrocinadores',

  'form.register': 'Inscrever-se',
  'form.title': 'Inscrição',
  'form.firstName': 'Nome',
  'form.lastName': 'Sobrenome',
  'form.email': 'E-mail',
  'form.required': 'Obrigatório',
  'form.optional': 'opcional',
  'form.select': 'Escolha…',
  'form.yes': 'Sim',
  'form.no': 'Não',
  'form.attendeeKind': 'Vou participar como',
  'form.rsvp': 'Você vai comparecer?',
  'form.fieldRequired': 'Este campo é obrigatório.',
  'form.invalidEmail': 'Informe um e-mail válido, como nome@exemplo.com.',
  'form.tooLong': 'Use no máximo {max} caracteres.',
  'form.errorSummary': 'Corrija o seguinte:',
  'form.submit': 'Inscrever-se',
  'form.submitting': 'Enviando…',
  'form.registered': 'Inscrição confirmada!',
  'form.registeredText': 'Você está inscrito em {event}. Enviamos os detalhes para {email}.',
  'form.waitingList': 'Você está na lista de espera',
  'form.waitingListText': 'O evento está lotado. Avisaremos você se surgir uma vaga.',
  'form.alreadyRegistered': 'Este e-mail já está inscrito.',
  'form.closed': 'As inscrições estão encerradas.',
  'form.full': 'As inscrições estão esgotadas.',
  'form.notOpen': 'As inscrições ainda não estão abertas.',
  'form.ended': 'O período de inscrições terminou.',
  'form.inviteCode': 'Código de convite',
  'form.inviteRequired': 'É necessário um código de convite para se inscrever.',
  'form.inviteInvalid': 'Este código de convite não é válido.',
  'form.consent': 'Concordo com o tratamento dos meus dados para a gestão da minha participação neste evento.',
  'form.consentRequired': 'É preciso concordar para continuar.',
  'form.tryAgain': 'Algo deu errado. Tente novamente.',
  'form.networkError': 'Não foi possível conectar. Verifique sua conexão e tente novamente.',
  'form.tooManyRequests': 'Muitas tentativas. Aguarde um momento e tente novamente.',

  'gate.title': 'Este evento é privado',
  'gate.intro': 'Digite o código de acesso que você recebeu para ver este evento.',
  'gate.accessCode': 'Código de acesso',
  'gate.unlock': 'Desbloquear',
  'gate.checking': 'Verificando…',
  'gate.wrongCode': 'Código incorreto. Confira e tente novamente.',
  'gate.invalidCode': 'O código de acesso é um número de 1 a 9999.',
  'gate.tooManyTries': 'Muitas tentativas — tente novamente em {minutes} minutos.',
  'gate.tooManyTries.one': 'Muitas tentativas — tente novamente em 1 minuto.',
  'gate.robotCheck': 'Verificando que você não é um robô…',
  'gate.robotWhy':
    'Muitos códigos errados foram tentados neste evento, então seu navegador primeiro resolve um pequeno desafio (cerca de um segundo) antes de verificar seu código.',
  'gate.robotNoScript': 'Esta verificação precisa de JavaScript: ative-o ou tente novamente em uma hora.',
  'gate.robotFailed': 'Não foi possível concluir a verificação. Tente novamente.',

  'password.title': 'Escolha uma nova senha',
  'password.intro':
    'Digite a nova senha duas vezes. Depois de definida, você sai da conta em todos os lugares onde estava conectado.',
  'password.noCode': 'Para escolher uma nova senha, abra o link do e-mail que enviamos a você.',
  'password.new': 'Nova senha',
  'password.again': 'Digite a nova senha novamente',
  'password.rules': 'No mínimo 8 caracteres, no máximo 200.',
  'password.submit': 'Definir a senha',
  'password.tooShort': 'A senha é curta demais: use pelo menos 8 caracteres.',
  'password.tooLong': 'A senha é longa demais: use no máximo 200 caracteres.',
  'password.mismatch': 'As duas senhas não são iguais. Digite-as novamente.',
  'password.doneTitle': 'Senha definida',
  'password.done': 'Sua senha foi definida. Agora você já pode entrar com ela.',
  'password.linkUsed': 'Este link já foi usado ou expirou: cada link funciona uma vez, durante uma hora.',
  'password.newLink':
    'Para receber outro, peça novamente um link de senha (“Esqueceu a senha?”) e abra o e-mail mais recente.',
  'password.tooMany': 'Muitas tentativas. Aguarde {seconds} segundos e tente novamente.',
  'password.tooMany.one': 'Muitas tentativas. Aguarde 1 segundo e tente novamente.',
  'password.otherSite':
    'Este formulário foi enviado de outro site e por isso foi recusado. Abra novamente o link do e-mail.',
  'password.failed': 'Não foi possível definir a senha agora. Tente novamente em instantes.',
  'password.askTitle': 'Receba um link para definir sua senha',
  'password.askIntro':
    'Digite o endereço de e-mail da sua conta e enviaremos a ele um link para escolher uma nova senha.',
  'password.email': 'Endereço de e-mail',
  'password.askSubmit': 'Enviar o link',
  'password.emailMissing': 'Digite seu endereço de e-mail.',
  'password.emailInvalid': 'Isto não é um endereço de e-mail (como nome@exemplo.com): confira e tente novamente.',
  'password.sentTitle': 'Confira seu e-mail',
  'password.sent':
    'Se alguma conta usa este endereço, enviamos a ele um link. Ele funciona uma vez, dentro de uma hora.',
  'password.newLinkBelow': 'Para receber outro, peça um link abaixo e abra o e-mail mais recente.',
  'password.askTooMany': 'Muitos links foram pedidos. Aguarde {minutes} minutos e tente novamente.',
  'password.askTooMany.one': 'Muitos links foram pedidos. Aguarde 1 minuto e tente novamente.',
  'password.askOtherSite':
    'Este formulário foi enviado de outro site e por isso foi recusado. Digite seu endereço aqui novamente.',
  'password.askFailed': 'Não foi possível enviar o link agora. Tente novamente em instantes.',

  'error.notFound': 'Página não encontrada',
  'error.notFoundText': 'A página que você procura não existe ou foi movida.',
  'error.eventNotFound': 'Evento não encontrado',
  'error.generic': 'Algo deu errado',
  'error.genericText': 'Tente novamente em instantes.',
  'error.forbidden': 'Você não tem acesso a esta página.',
  'error.backToEvent': 'Voltar ao evento',
  'error.backToDirectory': 'Voltar à lista de eventos',

  'directory.title': 'Eventos',
  'directory.upcoming': 'Próximos eventos',
  'directory.past': 'Eventos anteriores',
  'directory.happeningNow': 'Acontecendo agora',
  'directory.empty': 'Nenhum evento ainda',
  'directory.viewEvent': 'Ver evento',
};

const es: Messages = {
  'lang.en': 'English',
  'lang.pt': 'Português',
  'lang.es': 'Español',
  'lang.label': 'Idioma',

  'nav.home': 'Inicio',
  'nav.schedule': 'Programa',
  'nav.speakers': 'Ponentes',
  'nav.sponsors': 'Patrocinadores',
  'nav.register': 'Inscripción',
  'nav.location': 'Ubicación',
  'nav.faq': 'Preguntas frecuentes',
  'nav.menu': 'Menú',
  'nav.main': 'Principal',
  'nav.skipToContent': 'Saltar al contenido',

  'common.loading': 'Cargando…',
  'common.close': 'Cerrar',
  'common.showMore': 'Mostrar más',
  'common.showLess': 'Mostrar menos',
  'common.opensInNewTab': '(se abre en una pestaña nueva)',
  'common.poweredBy': 'Creado con Podium',
  'common.retry': 'Reintentar',
  'common.share': 'Compartir',
  'common.copyLink': 'Copiar enlace',
  'common.linkCopied': 'Enlace copiado',

  'event.dates': '{start} – {end}',
  'event.location': 'Ubicación',
  'event.directions': 'Cómo llegar',
  'event.map': 'Mapa de {place}',
  'event.online': 'En línea',
  'event.faq': 'Preguntas frecuentes',
  'event.private': 'Evento privado',
  'date.today': 'Hoy',
  'date.tomorrow': 'Mañana',
  'date.yesterday': 'Ayer',
  'date.day': 'Día {number}',
  'date.timeZone': 'Zona horaria',
  'date.timesIn': 'Horarios en {zone}',

  'schedule.title': 'Programa',
  'schedule.grid': 'Cuadrícula',
  'schedule.list': 'Lista',
  'schedule.view': 'Vista',
  'schedule.compact': 'Compacto',
  'schedule.allDays': 'Todos los días',
  'schedule.allRooms': 'Todas las salas',
  'schedule.allTracks': 'Todas las temáticas',
  'schedule.filters': 'Filtros',
  'schedule.filterByTrack': 'Filtrar por temática',
  'schedule.filterByRoom': 'Filtrar por sala',
  'schedule.filterByDay': 'Filtrar por día',
  'schedule.day': 'Día',
  'schedule.room': 'Sala',
  'schedule.track': 'Temática',
  'schedule.time': 'Hora',
  'schedule.noRoom': 'Otros',
  'schedule.search': 'Buscar',
  'schedule.searchPlaceholder': 'Buscar sesiones, ponentes, temas',
  'schedule.eventTime': 'Hora del evento',
  'schedule.myTime': 'Mi hora',
  'schedule.favourites': 'Favoritos',
  'schedule.mySchedule': 'Mi agenda',
  'schedule.addFavourite': 'Añadir a favoritos',
  'schedule.removeFavourite': 'Quitar de favoritos',
  'schedule.addFavouriteNamed': 'Añadir «{name}» a favoritos',
  'schedule.removeFavouriteNamed': 'Quitar «{name}» de favoritos',
  'schedule.noFavourites': 'Aún no tienes favoritos. Usa la estrella de una sesión para añadirla a tu agenda.',
  'schedule.favouritesNotSaved': 'No se pueden guardar tus favoritos en este navegador.',
  'schedule.downloadCalendar': 'Descargar calendario',
  'schedule.downloadCalendarHint': 'Un archivo .ics para Google Calendar, Outlook o Calendario de Apple',
  'schedule.addToCalendar': 'Añadir al calendario',
  'schedule.now': 'Ahora',
  'schedule.next': 'A continuación',
  'schedule.live': 'En directo',
  'schedule.ended': 'Finalizada',
  'schedule.nothingNow': 'No hay nada en curso en este momento.',
  'schedule.startsIn': 'Empieza en {minutes} minutos',
  'schedule.startsIn.one': 'Empieza en 1 minuto',
  'schedule.noSessions': 'Ninguna sesión coincide con estos filtros.',
  'schedule.empty': 'El programa aún no se ha publicado.',
  'schedule.clearFilters': 'Borrar filtros',
  'schedule.sessions': '{count} sesiones',
  'schedule.sessions.one': '1 sesión',
  'schedule.results': '{count} de {total} sesiones',
  'schedule.speakers': 'Ponentes',
  'schedule.capacity': 'Aforo: {count}',
  'schedule.highlight': 'Destacado',
  'schedule.watch': 'Ver la transmisión',
  'schedule.details': 'Detalles',
  'schedule.loading': 'Cargando el programa…',
  'schedule.loadError': 'No se pudo cargar el programa.',

  'speakers.title': 'Ponentes',
  'speakers.empty': 'Los ponentes se anunciarán pronto.',
  'speakers.sessions': 'Sesiones',
  'speakers.photo': 'Foto de {name}',

  'sponsors.title': 'Patrocinadores',
  'sponsors.empty': 'Todavía no hay patrocinadores.',
  'embed.title': 'Insertar este evento',
  'embed.intro':
    'Copie un fragmento en cualquier página web: una etiqueta script y un elemento. Los widgets siguen el estilo de su página mediante las propiedades --podium-*.',
  'embed.registration': 'Formulario de inscripción',
  'embed.agenda': 'Programa',
  'embed.gate': 'Acceso con código (eventos privados)',
  'sponsors.visit': 'Visitar {name}',
  'sponsors.become': 'Hazte patrocinador',
  'sponsors.tier.diamond': 'Diamante',
  'sponsors.tier.platinum': 'Platino',
  'sponsors.tier.gold': 'Oro',
  'sponsors.tier.silver': 'Plata',
  'sponsors.tier.bronze': 'Bronce',
  'sponsors.tier.partners': 'Socios',
  'sponsors.tier.supporters': 'Colaboradores',
  'sponsors.tier.media': 'Medios colaboradores',
  'sponsors.tier.other': 'Patrocinadores',

  'form.register': 'Inscribirse',
  'form.title': 'Inscripción',
  'form.firstName': 'Nombre',
  'form.lastName': 'Apellidos',
  'form.email': 'Correo electrónico',
  'form.required': 'Obligatorio',
  'form.optional': 'opcional',
  'form.select': 'Elige…',
  'form.yes': 'Sí',
  'form.no': 'No',
  'form.attendeeKind': 'Asisto como',
  'form.rsvp': '¿Asistirás?',
  'form.fieldRequired': 'Este campo es obligatorio.',
  'form.invalidEmail': 'Introduce un correo electrónico válido, como nombre@ejemplo.com.',
  'form.tooLong': 'Usa como máximo {max} caracteres.',
  'form.errorSummary': 'Corrige lo siguiente:',
  'form.submit': 'Inscribirse',
  'form.submitting': 'Enviando…',
  'form.registered': '¡Inscripción completada!',
  'form.registeredText': 'Te has inscrito en {event}. Hemos enviado los detalles a {email}.',
  'form.waitingList': 'Estás en la lista de espera',
  'form.waitingListText': 'El evento está completo. Te avisaremos si se libera una plaza.',
  'form.alreadyRegistered': 'Este correo electrónico ya está inscrito.',
  'form.closed': 'Las inscripciones están cerradas.',
  'form.full': 'Las inscripciones están completas.',
  'form.notOpen': 'Las inscripciones aún no están abiertas.',
  'form.ended': 'El plazo de inscripción ha terminado.',
  'form.inviteCode': 'Código de invitación',
  'form.inviteRequired': 'Necesitas un código de invitación para inscribirte.',
  'form.inviteInvalid': 'Este código de invitación no es válido.',
  'form.consent': 'Acepto que mis datos se traten para gestionar mi participación en este evento.',
  'form.consentRequired': 'Debes aceptar para continuar.',
  'form.tryAgain': 'Algo salió mal. Inténtalo de nuevo.',
  'form.networkError': 'No se pudo conectar. Comprueba tu conexión e inténtalo de nuevo.',
  'form.tooManyRequests': 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',

  'gate.title': 'Este evento es privado',
  'gate.intro': 'Introduce el código de acceso que recibiste para ver este evento.',
  'gate.accessCode': 'Código de acceso',
  'gate.unlock': 'Desbloquear',
  'gate.checking': 'Comprobando…',
  'gate.wrongCode': 'Código incorrecto. Revísalo e inténtalo de nuevo.',
  'gate.invalidCode': 'El código de acceso es un número del 1 al 9999.',
  'gate.tooManyTries': 'Demasiados intentos: vuelve a intentarlo dentro de {minutes} minutos.',
  'gate.tooManyTries.one': 'Demasiados intentos: vuelve a intentarlo dentro de 1 minuto.',
  'gate.robotCheck': 'Comprobando que no eres un robot…',
  'gate.robotWhy':
    'Se probaron muchos códigos incorrectos para este evento, así que tu navegador primero resuelve un pequeño desafío (alrededor de un segundo) antes de comprobar tu código.',
  'gate.robotNoScript': 'Esta comprobación necesita JavaScript: actívalo o vuelve a intentarlo dentro de una hora.',
  'gate.robotFailed': 'No se pudo completar la comprobación. Inténtalo de nuevo.',

  'password.title': 'Elige una nueva contraseña',
  'password.intro':
    'Escribe la nueva contraseña dos veces. Una vez definida, se cerrará tu sesión en todos los lugares donde estabas conectado.',
  'password.noCode': 'Para elegir una nueva contraseña, abre el enlace del correo que te enviamos.',
  'password.new': 'Nueva contraseña',
  'password.again': 'Escribe de nuevo la nueva contraseña',
  'password.rules': 'Al menos 8 caracteres, como máximo 200.',
  'password.submit': 'Definir la contraseña',
  'password.tooShort': 'La contraseña es demasiado corta: usa al menos 8 caracteres.',
  'password.tooLong': 'La contraseña es demasiado larga: usa como máximo 200 caracteres.',
  'password.mismatch': 'Las dos contraseñas no son iguales. Escríbelas de nuevo.',
  'password.doneTitle': 'Contraseña definida',
  'password.done': 'Tu contraseña está definida. Ya puedes iniciar sesión con ella.',
  'password.linkUsed': 'Este enlace ya se usó o ha caducado: cada enlace funciona una vez, durante una hora.',
  'password.newLink':
    'Para recibir otro, vuelve a pedir un enlace de contraseña («¿Olvidaste tu contraseña?») y abre el correo más reciente.',
  'password.tooMany': 'Demasiados intentos. Espera {seconds} segundos y vuelve a intentarlo.',
  'password.tooMany.one': 'Demasiados intentos. Espera 1 segundo y vuelve a intentarlo.',
  'password.otherSite':
    'Este formulario se envió desde otro sitio, así que se rechazó. Vuelve a abrir el enlace del correo.',
  'password.failed': 'No se pudo definir la contraseña ahora. Inténtalo de nuevo en unos momentos.',
  'password.askTitle': 'Recibe un enlace para definir tu contraseña',
  'password.askIntro':
    'Escribe la dirección de correo de tu cuenta y le enviaremos un enlace para elegir una nueva contraseña.',
  'password.email': 'Dirección de correo electrónico',
  'password.askSubmit': 'Enviarme un enlace',
  'password.emailMissing': 'Escribe tu dirección de correo electrónico.',
  'password.emailInvalid':
    'Esto no es una dirección de correo (como nombre@ejemplo.com): revísala y vuelve a intentarlo.',
  'password.sentTitle': 'Revisa tu correo',
  'password.sent': 'Si alguna cuenta usa esta dirección, le enviamos un enlace. Funciona una vez, dentro de una hora.',
  'password.newLinkBelow': 'Para recibir otro, pide un enlace abajo y abre el correo más reciente.',
  'password.askTooMany': 'Se pidieron demasiados enlaces. Espera {minutes} minutos y vuelve a intentarlo.',
  'password.askTooMany.one': 'Se pidieron demasiados enlaces. Espera 1 minuto y vuelve a intentarlo.',
  'password.askOtherSite':
    'Este formulario se envió desde otro sitio, así que se rechazó. Vuelve a escribir tu dirección aquí.',
  'password.askFailed': 'No se pudo enviar el enlace ahora. Inténtalo de nuevo en unos momentos.',

  'error.notFound': 'Página no encontrada',
  'error.notFoundText': 'La página que buscas no existe o se ha movido.',
  'error.eventNotFound': 'Evento no encontrado',
  'error.generic': 'Algo salió mal',
  'error.genericText': 'Inténtalo de nuevo en unos momentos.',
  'error.forbidden': 'No tienes acceso a esta página.',
  'error.backToEvent': 'Volver al evento',
  'error.backToDirectory': 'Volver a la lista de eventos',

  'directory.title': 'Eventos',
  'directory.upcoming': 'Próximos eventos',
  'directory.past': 'Eventos anteriores',
  'directory.happeningNow': 'En curso',
  'directory.empty': 'Aún no hay eventos',
  'directory.viewEvent': 'Ver evento',
};

export const messages: Record<Locale, Messages> = { en, pt, es };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export type MessageVars = Readonly<Record<string, string | number>>;

function fill(template: string, vars: MessageVars | undefined): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

/**
 * The message `key` in `locale` (English when the locale or the key is missing; the key itself as a last
 * resort), with `{name}` placeholders filled from `vars` (unknown placeholders are left as they are).
 */
export function t(locale: Locale | string, key: MessageKey, vars?: MessageVars): string {
  const catalogue = isLocale(locale) ? messages[locale] : en;
  return fill(catalogue[key] ?? en[key] ?? key, vars);
}

/**
 * A counted message: `key.one` when `count` is 1 and such a key exists, else `key` (whose text holds
 * `{count}`); `{count}` and the other vars filled in. (English, Portuguese and Spanish only need "1" vs
 * "the rest": "0 sessões", "0 sesiones".)
 */
export function tp(locale: Locale | string, key: MessageKey, count: number, vars?: MessageVars): string {
  const one = `${key}.one`;
  const chosen = count === 1 && Object.hasOwn(en, one) ? (one as MessageKey) : key;
  return t(locale, chosen, { count, ...vars });
}

/**
 * The language tags of an Accept-Language header, best first (by q, then by position); `*`, q=0 and
 * malformed entries are dropped. `"pt-BR,pt;q=0.9,en;q=0.8"` → `['pt-BR', 'pt', 'en']`.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (typeof header !== 'string' || header === '') return [];
  const entries: { tag: string; q: number; i: number }[] = [];
  header
    .split(',')
    .slice(0, 50)
    .forEach((part, i) => {
      const [rawTag, ...params] = part.trim().split(';');
      const tag = rawTag.trim();
      if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return;
      let q = 1;
      for (const param of params) {
        const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
        if (m) q = Number(m[1]);
        else if (/^\s*q\s*=/i.test(param)) q = NaN;
      }
      if (q > 0 && q <= 1) entries.push({ tag, q, i });
    });
  return entries.sort((a, b) => b.q - a.q || a.i - b.i).map((e) => e.tag);
}

/** The supported locale of one language tag ('pt-BR' → 'pt', 'es_419' → 'es'), or null. */
export function localeOf(tag: string | null | undefined): Locale | null {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(primary) ? primary : null;
}

/**
 * The first supported locale among `candidates`, in order of preference: e.g. an explicit choice (?lang=),
 * the event's language, then the Accept-Language entries (parseAcceptLanguage). A candidate holding a
 * comma is read as a whole Accept-Language header. English when none is supported.
 */
export function pickLocale(candidates: readonly (string | undefined | null)[]): Locale {
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    for (const tag of candidate.includes(',') || candidate.includes(';')
      ? parseAcceptLanguage(candidate)
      : [candidate]) {
      const locale = localeOf(tag);
      if (locale) return locale;
    }
  }
  return DEFAULT_LOCALE;
}
