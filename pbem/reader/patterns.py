"""What mail clients write around a quoted mail, per language: data a maintainer extends.

Each table holds one line per language (or client family).  To teach the reader a new
language or client, add a line here with the words that client writes; `quotes` builds its
patterns from these tables once, at import, and needs no new code.  Words are matched
case-insensitively, as whole words, with any run of spaces between them.
"""

from __future__ import annotations

#: Verbs that close an attribution ("On <date>, <name> wrote:"), before its colon.
ATTRIBUTION_VERBS: tuple[tuple[str, ...], ...] = (
    ("en", "wrote", "writes", "sent"),
    ("de", "schrieb", "hat geschrieben", "schreibt"),
    ("fr", "a écrit", "a ecrit", "écrit"),
    ("es", "escribió", "escribio"),
    ("ca", "ha escrit", "va escriure"),
    ("it", "ha scritto", "scrive"),
    ("pt", "escreveu"),
    ("nl", "schreef", "het volgende geschreven", "geschreven"),
    ("da no sv", "skrev", "skriver"),
    ("fi", "kirjoitti"),
    ("hu", "írta"),
    ("pl", "napisał", "napisała", "napisał(a)", "pisze"),
    ("cs sk", "napsal", "napsala", "napísal"),
    ("ru", "написал", "написала", "написал(а)", "пишет"),
    ("uk", "написав", "написала", "пише"),
    ("bg mk sr", "написа", "написао", "написао/ла", "је написао/ла"),
    ("hr bs sr", "napisao je", "napisala je", "napisao", "napisao/la"),
    ("sl", "napisal", "napisal(a)"),
    ("ro", "a scris"),
    ("el", "έγραψε"),
    ("lt", "rašė"),
    ("lv", "rakstīja"),
    ("et", "kirjutas"),
    ("id ms", "menulis"),
    ("th", "เขียนว่า", "เขียน"),
    ("fa", "نوشت"),
    ("hi", "ने लिखा"),
    ("tr", "yazdı"),
    ("vi", "đã viết"),
    ("zh", "写道", "寫道"),
    ("ja", "のメッセージ", "は書きました"),
    ("ko", "작성", "님이 작성"),
)

#: Of those verbs, the ones a language puts before the writer's name ("Am <date> schrieb Rita
#: <rita@example.org>:"): an attribution may go on after them.
VERBS_BEFORE_NAME: tuple[tuple[str, ...], ...] = (
    ("de", "schrieb"),
    ("nl", "schreef"),
    ("da no sv", "skrev"),
    ("pl", "napisał", "napisała", "napisał(a)", "pisze"),
)

#: Words an attribution starts with, before its date ("On Tue, 1 Dec 2026, Rita wrote:").
ATTRIBUTION_OPENERS: tuple[tuple[str, ...], ...] = (
    ("en", "on", "quoting"),
    ("de", "am", "zitat von"),
    ("fr", "le"),
    ("es ca", "el"),
    ("it", "il giorno", "il", "in data"),
    ("pt", "em", "no dia"),
    ("nl", "op"),
    ("da no sv", "den", "på", "d."),
    ("pl", "w dniu", "dnia"),
    ("vi", "vào"),
    ("zh", "在"),
)

#: Separator lines above an original or a forward, written with dashes, equals signs or a
#: colon around them ("-----Original Message-----", "Begin forwarded message:").
SEPARATORS: tuple[tuple[str, ...], ...] = (
    (
        "en",
        "original message",
        "reply message",
        "forwarded message",
        "begin forwarded message",
        "original email",
    ),
    (
        "de",
        "ursprüngliche nachricht",
        "original nachricht",
        "antwort nachricht",
        "weitergeleitete nachricht",
        "anfang der weitergeleiteten nachricht",
    ),
    (
        "fr",
        "message d'origine",
        "message original",
        "message transféré",
        "début du message réexpédié",
        "message réexpédié",
    ),
    ("es", "mensaje original", "mensaje reenviado", "inicio del mensaje reenviado"),
    ("it", "messaggio originale", "messaggio inoltrato", "inizio messaggio inoltrato"),
    ("pt", "mensagem original", "mensagem encaminhada"),
    ("nl", "oorspronkelijk bericht", "origineel bericht", "doorgestuurd bericht"),
    ("sv", "originalmeddelande", "ursprungligt meddelande", "vidarebefordrat meddelande"),
    ("da", "oprindelig meddelelse", "oprindelig besked", "videresendt meddelelse", "videresendt besked"),
    ("no", "opprinnelig melding", "videresendt melding"),
    ("fi", "alkuperäinen viesti", "välitetty viesti"),
    (
        "pl",
        "wiadomość oryginalna",
        "oryginalna wiadomość",
        "wiadomość przekazana dalej",
        "przekazana wiadomość",
    ),
    ("ru", "исходное сообщение", "пересылаемое сообщение", "пересланное сообщение", "оригинальное сообщение"),
    ("ru", "исходное письмо"),
    ("uk", "оригінальне повідомлення", "переслане повідомлення"),
    ("zh", "原始邮件", "原始郵件", "转发邮件", "轉寄郵件", "已转发邮件", "已轉寄郵件"),
    ("ja", "元のメッセージ", "転送メッセージ", "転送されたメッセージ"),
    ("ko", "원본 메시지", "전달된 메시지"),
    ("de", "originalnachricht"),
    ("cs", "původní zpráva", "původní e-mail", "přeposlaná zpráva"),
    ("sk", "pôvodná správa", "preposlaná správa"),
    ("hu", "eredeti üzenet", "továbbított üzenet"),
    ("ro", "mesaj original", "mesaj redirecționat"),
    ("el", "αρχικό μήνυμα", "προωθημένο μήνυμα"),
    ("tr", "orijinal ileti", "orijinal mesaj", "iletilen ileti"),
    ("ca", "missatge original", "missatge reenviat"),
    ("gl", "mensaxe orixinal"),
    ("hr bs sr", "izvorna poruka", "originalna poruka", "proslijeđena poruka"),
    ("sl", "originalno sporočilo", "originalsporočilo", "posredovano sporočilo"),
    ("bg", "оригинално писмо", "препратено писмо"),
    ("lt", "pradinis laiškas"),
    ("lv", "sākotnējā ziņa"),
    ("et", "algne sõnum"),
    ("vi", "tin nhắn gốc", "thư gốc"),
    ("id ms", "pesan asli", "pesan terusan"),
    ("th", "ข้อความต้นฉบับ"),
    ("he", "ההודעה המקורית", "הודעה מקורית"),
    ("ar", "الرسالة الأصلية"),
)

#: Words a client adds after a separator's phrase, inside its frame: Tobit david writes
#: "[Original Message processed by david®]".
SEPARATOR_TAILS: tuple[tuple[str, ...], ...] = (("en", "processed by"),)

#: Keys of the header block above an unquoted original (Outlook: From / Sent / To / Subject).
#: The sender's key first on each line; a block needs the sender and two other keys, or the
#: sender and a date.
HEADER_SENDER_KEYS: tuple[tuple[str, ...], ...] = (
    ("en", "from"),
    ("de", "von"),
    ("fr es pt", "de"),
    ("it", "da"),
    ("nl", "van"),
    ("da no", "fra"),
    ("sv", "från"),
    ("pl cs", "od"),
    ("fi", "lähettäjä"),
    ("hu", "feladó"),
    ("ru", "от"),
    ("uk", "від"),
    ("zh", "发件人", "寄件者", "寄件人"),
    ("ja", "差出人", "送信者"),
    ("ko", "보낸 사람"),
    ("sk sl", "od"),
    ("tr", "kimden"),
    ("el", "από"),
    ("ro", "de la"),
    ("he", "מאת"),
    ("ar", "من"),
    ("vi", "từ"),
    ("id ms", "dari"),
    ("th", "จาก"),
    ("hr", "šalje"),
    ("lt", "nuo"),
    ("bg", "от"),
    ("et", "saatja"),
    # Latvian writes "No:", which is also an English answer ("No: I meant the Baron"): not read.
)
HEADER_DATE_KEYS: tuple[tuple[str, ...], ...] = (
    ("en", "sent", "date"),
    ("de", "gesendet", "datum"),
    ("fr", "envoyé", "date", "message du", "envoyé le"),
    ("es pt", "enviado", "fecha", "enviada", "data"),
    ("it", "inviato", "data"),
    ("nl", "verzonden", "datum"),
    ("sv da no", "skickat", "sendt", "dato", "datum"),
    ("pl", "wysłano", "data"),
    ("fi", "lähetetty", "päivämäärä"),
    ("ru", "отправлено", "дата"),
    ("uk", "надіслано", "дата"),
    ("zh", "发送时间", "日期", "傳送時間", "时间"),
    ("ja", "送信日時", "日付"),
    ("ko", "보낸 날짜"),
    ("pl", "wysłane"),
    ("cs", "odesláno", "datum"),
    ("sk", "odoslané"),
    ("hu", "elküldve", "dátum"),
    ("tr", "gönderildi", "tarih"),
    ("el", "στάλθηκε", "ημερομηνία"),
    ("ro", "trimis", "data"),
    ("he", "נשלח", "תאריך"),
    ("ar", "تم الإرسال", "التاريخ"),
    ("zh", "寄件日期"),
    ("vi", "đã gửi", "ngày"),
    ("id ms", "dikirim", "tanggal"),
    ("th", "ส่ง", "วันที่"),
    ("ca", "enviat el", "enviat", "data"),
    ("hr sl", "poslano", "datum"),
    ("lt", "išsiųsta", "data"),
    ("bg", "изпратено", "дата"),
    ("et", "saadetud", "kuupäev"),
    ("lv", "nosūtīts", "datums"),
)
HEADER_OTHER_KEYS: tuple[tuple[str, ...], ...] = (
    ("en", "to", "cc", "subject", "reply-to"),
    ("de", "an", "betreff", "kopie", "cc"),
    ("fr", "à", "a", "objet", "sujet", "copie à", "cc"),
    ("es pt", "para", "asunto", "assunto", "cc"),
    ("it", "a", "oggetto", "cc"),
    ("nl", "aan", "onderwerp"),
    ("sv da no", "till", "til", "ämne", "emne"),
    ("pl", "do", "temat", "dw"),
    ("fi", "vastaanottaja", "aihe", "kopio"),
    ("ru", "кому", "тема", "копия"),
    ("uk", "кому", "тема", "копія"),
    ("zh", "收件人", "主题", "主旨", "抄送", "副本"),
    ("ja", "宛先", "件名"),
    ("ko", "받는 사람", "제목", "참조"),
    ("cs sk", "komu", "předmět", "predmet", "kopie"),
    ("hu", "címzett", "tárgy", "másolatot kap"),
    ("tr", "kime", "konu", "bilgi"),
    ("el", "προς", "θέμα", "κοιν"),
    ("ro", "către", "subiect"),
    ("he", "אל", "נושא", "עותק"),
    ("ar", "إلى", "الموضوع", "نسخة"),
    ("zh", "收件者"),
    ("vi", "đến", "chủ đề"),
    ("id ms", "kepada", "subjek", "perihal", "tembusan"),
    ("th", "ถึง", "เรื่อง", "สำเนาถึง"),
    ("ca", "per a", "assumpte", "a"),
    ("hr sl", "prima", "predmet", "za", "zadeva", "kopija"),
    ("lt", "kam", "tema"),
    ("bg", "до", "тема", "копие"),
    ("et", "adressaat", "teema", "koopia"),
    ("lv", "kam", "tēma"),
)

#: Footers a client adds under the writer's words ("Sent from my iPhone"): a short phrase
#: (the device or app, at most a few words) after these openers.  A line that goes on like a
#: sentence ("Sent from my desk, is much easier ...") is the writer's own.
DEVICE_FOOTERS: tuple[tuple[str, ...], ...] = (
    ("en", "sent from", "sent via", "sent with", "sent using", "get outlook for"),
    ("de", "von meinem", "gesendet von", "gesendet mit", "gesendet vom"),
    ("fr", "envoyé de", "envoyé depuis", "envoyé à partir de"),
    ("es pt", "enviado desde", "enviado do", "enviado de", "enviado con"),
    ("it", "inviato da"),
    ("nl", "verzonden vanaf", "verzonden met", "verzonden van"),
    ("sv da no", "skickat från", "sendt fra"),
    ("pl", "wysłane z"),
    ("ru", "отправлено с", "отправлено из"),
    ("zh", "發自我的", "发自我的", "從我的", "从我的"),
    ("fr", "obtenir outlook pour", "télécharger outlook pour"),
    ("es", "obtener outlook para", "descargar outlook para"),
    ("fr", "envoyé avec"),
    ("fi", "lähetetty"),
    ("cs sk", "odesláno z", "odesláno ze", "odoslané z", "odoslané zo"),
    ("hu", "elküldve", "küldve"),
    ("el", "στάλθηκε από"),
    ("ro", "trimis de pe", "trimis din", "trimis de"),
    ("uk", "надіслано з", "надіслано із"),
    ("he", "נשלח מה", "נשלח מ"),
    ("ar", "أرسلت من", "أُرسلت من", "مرسل من"),
    ("vi", "gửi từ", "được gửi từ"),
    ("id ms", "dikirim dari", "dikirim dengan", "dihantar dari"),
    ("th", "ส่งจาก"),
    ("ca", "enviat des de", "enviat des del", "enviat amb"),
    ("hr bs sr sl", "poslano s", "poslano sa", "poslano iz", "poslano z", "poslato sa"),
    ("bg", "изпратено от"),
    ("et", "saadetud"),
    ("lt", "išsiųsta iš", "siųsta iš"),
    ("lv", "nosūtīts no", "sūtīts no"),
    ("it", "scarica outlook per"),
    ("sv", "hämta outlook för"),
    ("pl", "pobierz aplikację outlook dla", "pobierz outlook dla"),
    ("ru", "получить outlook для", "скачать outlook для"),
    ("pt", "baixar o outlook para", "obter o outlook para", "obtenha o outlook para"),
    ("zh", "下载适用于", "获取适用于", "獲取適用於", "下載適用於"),
)

#: Footers that name the device first and close on these words ("iPhoneから送信", "Outlook
#: für iOS beziehen"): a short line ending so is the client's, not the writer's.
DEVICE_FOOTER_ENDS: tuple[tuple[str, ...], ...] = (
    ("ja", "から送信", "より送信"),
    ("zh", "傳送", "发送"),
    ("de", "für ios beziehen", "für android beziehen", "für ios herunterladen", "für android herunterladen"),
    ("nl", "voor ios downloaden", "voor android downloaden"),
    ("ko", "에서 보냄", "에서 보냈습니다"),
    ("tr", "gönderildi"),
    ("ja", "を入手"),
)

#: Banners a mail gateway puts at the top of a message ("CAUTION: This email originated from
#: outside of the organization..."): the paragraph they open is nobody's words.
GATEWAY_BANNERS: tuple[tuple[str, ...], ...] = (
    (
        "en",
        "caution: this email originated from outside",
        "caution: this e-mail originated from outside",
        "caution: external email",
        "this email originated from outside",
        "this e-mail originated from outside",
        "this message originated from outside",
        "this message came from an external sender",
        "external email:",
        "[external]",
        "[external email]",
    ),
    (
        "de",
        "achtung: diese e-mail stammt von außerhalb",
        "achtung: diese e-mail stammt von ausserhalb",
        "diese e-mail stammt von außerhalb",
        "externe e-mail:",
        "[extern]",
    ),
    (
        "fr",
        "attention : ce courriel provient de l'extérieur",
        "ce courriel provient de l'extérieur",
        "[externe]",
    ),
    ("es", "precaución: este correo se originó fuera", "[externo]"),
    ("nl", "let op: deze e-mail is afkomstig van buiten", "[extern]"),
)

#: Headings of a legal disclaimer under the writer's words ("Disclaimer", "Haftungsausschluss:"):
#: from such a heading alone on its line on, with no order below, nothing is the writer's.
DISCLAIMER_HEADINGS: tuple[tuple[str, ...], ...] = (
    ("en", "disclaimer", "legal disclaimer", "confidentiality notice", "legal notice", "important notice"),
    ("de", "haftungsausschluss", "rechtlicher hinweis", "vertraulichkeitshinweis", "disclaimer"),
    ("fr", "avertissement", "avis de confidentialité", "clause de confidentialité"),
    ("es", "aviso legal", "aviso de confidencialidad"),
    ("it", "avvertenza", "clausola di riservatezza"),
    ("nl", "vertrouwelijkheidsverklaring"),
)
#: Words of a disclaimer that starts on its heading's line ("Disclaimer: This message is
#: confidential..."): without one of them, "Disclaimer: I am new here" is the writer's.
DISCLAIMER_WORDS: tuple[tuple[str, ...], ...] = (
    ("en", "confidential", "privileged", "intended recipient", "intended solely", "intended only"),
    ("de", "vertraulich", "empfänger"),
    ("fr", "confidentiel", "destinataire"),
    ("es", "confidencial", "destinatario"),
    ("it", "riservat", "destinatario"),
    ("nl", "vertrouwelijk", "geadresseerde"),
)

#: Formal valedictions that open a sign-off at the end of the writer's words: the line and
#: the short name lines after it are dropped (never a line that reads as an order).  Casual
#: "Thanks," is left alone: it is as often a sentence as a sign-off.
VALEDICTIONS: tuple[tuple[str, ...], ...] = (
    (
        "en",
        "regards",
        "best regards",
        "kind regards",
        "warm regards",
        "warmest regards",
        "best wishes",
        "sincerely",
        "yours sincerely",
        "yours truly",
        "thank you",
        "many thanks",
        "all the best",
    ),
    (
        "de",
        "mit freundlichen grüßen",
        "mit freundlichen grüssen",
        "freundliche grüße",
        "viele grüße",
        "beste grüße",
        "liebe grüße",
        "gruß",
        "grüße",
    ),
    ("fr", "cordialement", "bien cordialement", "bien à vous", "salutations", "amitiés"),
    ("es", "saludos", "un saludo", "atentamente", "saludos cordiales"),
    ("it", "cordiali saluti", "distinti saluti", "saluti", "un saluto"),
    ("pt", "atenciosamente", "cumprimentos", "abraços"),
    ("nl", "met vriendelijke groet", "vriendelijke groeten", "groeten", "groet"),
    ("sv", "med vänlig hälsning", "vänliga hälsningar", "hälsningar"),
    ("da no", "med venlig hilsen", "med vennlig hilsen", "venlig hilsen", "hilsen"),
    ("fi", "ystävällisin terveisin", "terveisin"),
    ("pl", "pozdrawiam", "z poważaniem"),
    ("ru", "с уважением", "всего доброго"),
)


def words_of(table: tuple[tuple[str, ...], ...]) -> list[str]:
    """Every phrase of a table (the language label on each line left out), longest first.

    Longest first so that an alternation of them prefers "best regards" to "regards".
    """
    phrases = {phrase for line in table for phrase in line[1:]}
    return sorted(phrases, key=lambda phrase: (-len(phrase), phrase))
