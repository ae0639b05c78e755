"""Tests of pbem.reader: quote headers, separators, header blocks and sign-offs in many languages.

Each client family or language the reader's pattern tables (pbem/reader/patterns.py) know gets
a reply of its own here, written for this game: the player's orders on top, then what that
client writes above the original, then the turn mail *unquoted* (the dangerous case: an
unrecognised header lets the turn mail's order look-alikes through as the player's words).
"""

from __future__ import annotations

import pytest
from reader_kit import TURN_MAIL, assert_no_lookalikes, message, quote

from pbem.reader import read_mail

ORDERS = "Hand 3: Baron on Bruno\nHand 7: Prince on myself"

# What a client writes above the original, per language and client family.
HEADERS = {
    "en-gmail-iso-date": "2026-12-01 10:00 GMT+01:00 Rita (pbem) <gm@example.org>:",
    "en-dashed-android": "---- On Tue, 1 Dec 2026 Rita <gm@example.org> wrote ----",
    "en-no-colon": "On Tue, 1 Dec 2026 10:00:00 +0100 Rita <gm@example.org> wrote",
    "en-sent": "On 01-Dec-2026, at 10:00 AM, Rita (pbem) <gm@example.org> sent:",
    "en-reply-message": "-----Reply Message-----",
    "en-wrapped-address": "On Tue, Dec 1, 2026 at 10:00 AM Rita (pbem) <\ngm@example.org> wrote:",
    "de-thunderbird": "Am 01.12.2026 um 10:00 schrieb Rita (pbem):",
    "de-outlook-block": "Von: Rita (pbem) <gm@example.org>\nGesendet: Dienstag, 1. Dezember 2026 10:00\n"
    "An: Chloé Martin\nBetreff: [game7] Turn 3",
    "fr-gmail": "Le mar. 1 déc. 2026 à 10:00, Rita (pbem) <gm@example.org> a écrit :",
    "fr-webmail-block": "========================================\nMessage du : 01/12/2026 10:00\n"
    'De : "Rita (pbem)" <gm@example.org>\nA : chloe@example.org\nCopie à :\n'
    "Sujet : [game7] Turn 3",
    "es-gmail": "El mar, 1 dic 2026 a las 10:00, Rita (<gm@example.org>) escribió:",
    "ca-gmail": "El 01/12/2026 10:00, Rita <gm@example.org> ha escrit:",
    "it-gmail": "Il giorno mar 1 dic 2026 alle ore 10:00 Rita <gm@example.org> ha scritto:",
    "it-mobile": 'In data 1 dicembre 2026 10:00:00 "Rita (pbem)" <gm@example.org> ha scritto:',
    "pt-gmail": "Em ter., 1 de dez. de 2026 às 10:00, Rita <gm@example.org> escreveu:",
    "nl-apple": "Op 1 dec. 2026 om 10:00 heeft Rita <gm@example.org> het volgende geschreven:",
    "da-gmail": "tir. 1. dec. 2026 kl. 10.00 skrev Rita <gm@example.org>:",
    "da-separator": "-------- Oprindelig besked --------",
    "sv-apple": "Den 1 december 2026 10:00:00, Rita (gm@example.org) skrev:",
    "fi-gmail": "ti 1. jouluk. 2026 klo 10.00 Rita\n<gm@example.org> kirjoitti:",
    "pl-thunderbird": "W dniu 1.12.2026 o 10:00, gm@example.org pisze:",
    "ru-outlook-block": "От: Rita (pbem) <gm@example.org>\nОтправлено: 1 декабря 2026 г. 10:00\n"
    "Кому: Chloé\nТема: [game7] Turn 3",
    "ru-gmail": "вт, 1 дек. 2026 г. в 10:00, Rita <gm@example.org>:",
    "ru-android": '01.12.2026 10:00 пользователь "gm@example.org" <gm@example.org> написал:',
    "ru-mailru": "Tue, 1 Dec 2026 10:00 +0100 от Rita <gm@example.org>:",
    "uk-gmail": "1 грудня 2026 р. о 10:00 Rita <gm@example.org> написав:",
    "zh-outlook-block": "发件人: Rita <gm@example.org>\n发送时间: 2026年12月1日 10:00\n收件人: Chloé\n"
    "主题: [game7] Turn 3",
    "zh-apple": "在 2026年12月1日，上午10:00，Rita <gm@example.org> 写道：",
    "ja-apple": "2026/12/01 10:00、Rita <gm@example.org> のメッセージ:",
    "ja-outlook-block": "差出人: Rita <gm@example.org>\n送信日時: 2026年12月1日 10:00\n宛先: Chloé\n"
    "件名: [game7] Turn 3",
    "ko-apple": "2026. 12. 1. 오전 10:00, Rita <gm@example.org> 작성:",
    "ko-outlook-block": "보낸 사람: Rita <gm@example.org>\n보낸 날짜: 2026년 12월 1일 10:00\n"
    "받는 사람: Chloé\n제목: [game7] Turn 3",
    "vi-gmail": "Vào 10:00 1 tháng 12, 2026, Rita <gm@example.org> đã viết:",
    "en-html-flattened-block": "From: gm@example.org Date: Tue, 1 Dec 2026 10:00:00 +0100",
    "en-date-first-block": "Date: Tue, 1 Dec 2026 10:00:00 +0100\nTo: chloe@example.org",
    "de-android-footer": "Gesendet von Outlook für Android<https://aka.ms/ghei36>",
    # Gmail's attribution in more languages: the verb closes it, after the address.
    "zh-gmail": "Rita (pbem) <gm@example.org> 于2026年12月1日周二 上午10:00写道：",  # no space before the verb
    "zh-tw-gmail": "Rita (pbem) <gm@example.org> 於 2026年12月1日 週二 上午10:00寫道：",
    "el-gmail": "Στις Τρί 1 Δεκ 2026 στις 10:00, ο/η Rita <gm@example.org> έγραψε:",
    "ro-gmail": "În mar., 1 dec. 2026 la 10:00, Rita <gm@example.org> a scris:",
    "id-gmail": "Pada tanggal Sel, 1 Des 2026 pukul 10.00 Rita <gm@example.org> menulis:",
    "hr-gmail": "uto, 1. pro 2026. u 10:00 Rita <gm@example.org> napisao je:",
    "sr-gmail": "уто, 1. дец 2026. у 10:00 Rita <gm@example.org> је написао/ла:",
    "bg-gmail": "вт, 1.12.2026 г. в 10:00 ч. Rita <gm@example.org> написа:",
    "sl-gmail": "tor., 1. dec. 2026 ob 10:00 je oseba Rita <gm@example.org> napisal:",
    "lt-gmail": "2026-12-01, an, 10:00 Rita <gm@example.org> rašė:",
    "lv-gmail": "otrd., 2026. g. 1. dec., plkst. 10:00 — lietotājs Rita (<gm@example.org>) rakstīja:",
    "et-gmail": "T, 1. dets 2026 kell 10:00 Rita <gm@example.org> kirjutas:",
    "th-gmail": "เมื่อ อ. 1 ธ.ค. 2026 เวลา 10:00 Rita <gm@example.org> เขียนว่า:",
    "fa-gmail": "در تاریخ سه‌شنبه ۱ دسامبر ۲۰۲۶ ساعت ۱۰:۰۰ Rita <gm@example.org> نوشت:",
    "hi-gmail": "मंगल, 1 दिस॰ 2026 को 10:00 am बजे को Rita <gm@example.org> ने लिखा:",
    "uk-gmail-present": "вт, 1 груд. 2026 р. о 10:00 Rita <gm@example.org> пише:",
    # Outlook's header block in more languages, the sender shown by name only (Exchange).
    "cs-outlook-block": "Od: Rita (pbem)\nOdesláno: úterý 1. prosince 2026 10:00\nKomu: Chloé Martin\n"
    "Předmět: [game7] Turn 3",
    "sk-outlook-block": "Od: Rita (pbem)\nOdoslané: utorok 1. decembra 2026 10:00\nKomu: Chloé Martin\n"
    "Predmet: [game7] Turn 3",
    "hu-outlook-block": "Feladó: Rita (pbem)\nElküldve: 2026. december 1., kedd 10:00\nCímzett: Chloé Martin\n"
    "Tárgy: [game7] Turn 3",
    "tr-outlook-block": "Kimden: Rita (pbem)\nGönderildi: 1 Aralık 2026 Salı 10:00\nKime: Chloé Martin\n"
    "Konu: [game7] Turn 3",
    "el-outlook-block": "Από: Rita (pbem)\nΣτάλθηκε: Τρίτη, 1 Δεκεμβρίου 2026 10:00 πμ\nΠρος: Chloé Martin\n"
    "Θέμα: [game7] Turn 3",
    "ro-outlook-block": "De la: Rita (pbem)\nTrimis: marți, 1 decembrie 2026 10:00\nCătre: Chloé Martin\n"
    "Subiect: [game7] Turn 3",
    "he-outlook-block": "מאת: Rita (pbem)\nנשלח: יום שלישי 01 דצמבר 2026 10:00\nאל: Chloé Martin\n"
    "נושא: [game7] Turn 3",
    "ar-outlook-block": "من: Rita (pbem)\nتم الإرسال: الثلاثاء، 1 ديسمبر 2026 10:00 ص\nإلى: Chloé Martin\n"
    "الموضوع: [game7] Turn 3",
    "zh-tw-outlook-block": "寄件者: Rita (pbem)\n寄件日期: 2026年12月1日 上午 10:00\n收件者: Chloé Martin\n"
    "主旨: [game7] Turn 3",
    "vi-outlook-block": "Từ: Rita (pbem)\nĐã gửi: Thứ Ba, ngày 1 tháng 12 năm 2026 10:00\nĐến: Chloé Martin\n"
    "Chủ đề: [game7] Turn 3",
    "id-outlook-block": "Dari: Rita (pbem)\nDikirim: Selasa, 01 Desember 2026 10.00\nKepada: Chloé Martin\n"
    "Subjek: [game7] Turn 3",
    "th-outlook-block": "จาก: Rita (pbem)\nส่ง: 1 ธันวาคม 2026 10:00\nถึง: Chloé Martin\nเรื่อง: [game7] Turn 3",
    "ca-outlook-block": "De: Rita (pbem)\nEnviat el: dimarts, 1 de desembre de 2026 10:00\nPer a: Chloé Martin\n"
    "Assumpte: [game7] Turn 3",
    "hr-outlook-block": "Šalje: Rita (pbem)\nPoslano: utorak, 1. prosinca 2026. 10:00\nPrima: Chloé Martin\n"
    "Predmet: [game7] Turn 3",
    "sl-outlook-block": "Od: Rita (pbem)\nPoslano: torek, 1. december 2026 10:00\nZa: Chloé Martin\n"
    "Zadeva: [game7] Turn 3",
    "lt-outlook-block": "Nuo: Rita (pbem)\nIšsiųsta: 2026 m. gruodžio 1 d. 10:00\nKam: Chloé Martin\n"
    "Tema: [game7] Turn 3",
    "bg-outlook-block": "От: Rita (pbem)\nИзпратено: вторник, 1 декември 2026 г. 10:00\nДо: Chloé Martin\n"
    "Тема: [game7] Turn 3",
    # Outlook's and Gmail's separators in more languages.
    "cs-separator": "-----Původní zpráva-----",
    "sk-separator": "-----Pôvodná správa-----",
    "hu-separator": "-----Eredeti üzenet-----",
    "ro-separator": "-----Mesaj original-----",
    "el-separator": "-----Αρχικό μήνυμα-----",
    "tr-separator": "-----Orijinal İleti-----",
    "ru-separator-outlook": "-----Оригинальное сообщение-----",
    "pl-forward": "---------- Przekazana wiadomość ---------",
    "zh-forward": "---------- 已转发邮件 ---------",
    "ja-forward": "---------- 転送されたメッセージ ---------",
    "de-separator-one-word": "-----Originalnachricht-----",
    "ca-separator": "-----Missatge original-----",
    "hr-separator": "-----Izvorna poruka-----",
    "sl-separator": "-----Originalno sporočilo-----",
    "bg-separator": "-----Оригинално писмо-----",
    "vi-separator": "-----Tin nhắn gốc-----",
    "id-separator": "-----Pesan Asli-----",
    "th-separator": "-----ข้อความต้นฉบับ-----",
    "he-separator": "-----ההודעה המקורית-----",
    "ar-separator": "-----الرسالة الأصلية-----",
    "et-outlook-block": "Saatja: Rita (pbem)\nSaadetud: teisipäev, 1. detsember 2026 10:00\n"
    "Adressaat: Chloé Martin\nTeema: [game7] Turn 3",
}


@pytest.mark.parametrize("header", HEADERS.values(), ids=HEADERS.keys())
def test_the_unquoted_turn_mail_under_a_known_header_is_not_read(header):
    read = read_mail(message(f"{ORDERS}\n\n{header}\n\n{TURN_MAIL}"))
    assert read.own_text == ORDERS
    assert_no_lookalikes(read)


@pytest.mark.parametrize(
    "header",
    [h for k, h in HEADERS.items() if "block" not in k and "footer" not in k],
    ids=[k for k in HEADERS if "block" not in k and "footer" not in k],
)
def test_a_known_attribution_above_a_quote_is_dropped(header):
    read = read_mail(message(f"{ORDERS}\n\n{header}\n{quote(TURN_MAIL)}\n"))
    assert read.own_text == ORDERS


@pytest.mark.parametrize("glue", [" ", "--- ", " -- "])
def test_reply_text_on_the_attribution_line_is_kept(glue):
    body = f"Hand 3: Baron on Bruno{glue}On Tue, 1 Dec 2026 at 10:00, Rita <gm@example.org> wrote:\n"
    assert read_mail(message(body + quote(TURN_MAIL))).own_text == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "words",
    [
        "Am Ende schrieb ich:",  # an opener and a verb, but no date and no address
        "On Monday I sent Bruno away:",
        "Le Baron, c'est pour Bruno :",
        "2 cards left, Bruno <- watch him:",
    ],
)
def test_a_players_own_line_that_resembles_an_attribution_is_kept(words):
    body = f"{words}\nHand 3: Baron on Bruno"
    assert read_mail(message(body + "\n")).own_text == body


# --------------------------------------------------------------------------------------------
# Device footers, rules and sign-offs
# --------------------------------------------------------------------------------------------


def test_a_sentence_that_starts_like_a_device_footer_is_the_players():
    body = "Hand 3: Baron on Bruno\n\nSent from my desk, which beats typing orders on a phone.\n"
    assert read_mail(message(body)).own_text == body.strip()


@pytest.mark.parametrize(
    "footer",
    [
        "Odesláno z iPhonu",
        "Elküldve az iPhone-omról",
        "iPhone'umdan gönderildi",
        "Στάλθηκε από το iPhone μου",
        "Trimis de pe iPhone-ul meu",
        "Надіслано з iPhone",
        "נשלח מה-iPhone שלי",
        "Gửi từ iPhone của tôi",
        "Dikirim dari iPhone saya",
        "ส่งจาก iPhone ของฉัน",
        "Enviat des del meu iPhone",
        "Poslano s mog iPhonea",
        "Изпратено от моя iPhone",
        "Saadetud minu iPhone'ist",
        "Išsiųsta iš mano iPhone",
        "Nosūtīts no mana iPhone",
        "나의 iPhone에서 보냄",
        "Lähetetty Outlook for Android -sovelluksesta",
        "Scarica Outlook per iOS",
        "Hämta Outlook för iOS",
        "Получить Outlook для iOS",
        "Baixar o Outlook para iOS",
        "下载适用于 iOS 的 Outlook",
        "iOS 版 Outlook を入手",
        "Envoyé avec Spark",
    ],
)
def test_a_device_footer_in_more_languages_is_dropped(footer):
    assert read_mail(message(f"Hand 3: Baron on Bruno\n\n{footer}\n")).own_text == "Hand 3: Baron on Bruno"


@pytest.mark.parametrize(
    "line",
    [
        "Elküldve H3 Baron on Bruno",
        "Lähetetty hand 7: Prince on myself",
        "Sent from my phone: h3 baron bruno",
        "Gesendet von meinem iPhone Hand Nr. 3",  # the hand after a number sign
        "Envoyé de mon iPhone main n° 3",
    ],
)
def test_a_line_that_opens_like_a_footer_but_names_a_hand_is_the_players(line):
    assert (
        read_mail(message(f"Hand 1: Guard on Bruno\n{line}\n")).own_text == f"Hand 1: Guard on Bruno\n{line}"
    )


@pytest.mark.parametrize(
    "sign_off",
    [
        "Kind regards,\nChloé Martin\nLyon chess club",
        "Regards,\n\nChloé Martin",
        "Mit freundlichen Grüßen\nChloé Martin\nBerlin",
        "Cordialement,\nChloé\n06 00 00 00 00",
        "Med venlig hilsen\n\nChloé",
        "С уважением,\nХлоя\nМосква",
    ],
)
def test_a_sign_off_closing_the_orders_is_dropped(sign_off):
    assert read_mail(message(f"{ORDERS}\n\n{sign_off}\n")).own_text == ORDERS


@pytest.mark.parametrize(
    "body",
    [
        "Hand 3: Baron on Bruno\nRegards,\nHand 7: Prince on myself\nChloé",
        "Regards,\nHand 3: Baron on Bruno\nHand 7: Prince on myself",
        "Hand 3: Baron on Bruno\n\nBest regards,\nH7 Prince on myself\nChloé",
    ],
)
def test_a_sign_off_never_takes_an_order_with_it(body):
    assert "Prince on myself" in read_mail(message(body)).own_text
    assert "Baron on Bruno" in read_mail(message(body)).own_text


def test_a_rule_above_a_signature_closes_the_orders():
    body = f"{ORDERS}\n-----\nChloé Martin\n+33 6 00 00 00 00\nhttps://example.org/chloe\n"
    assert read_mail(message(body)).own_text == ORDERS


def test_a_rule_between_orders_and_sentences_is_kept():
    body = "Hand 3: Baron on Bruno\n----\nHand 7: Prince on myself\n====\nThe rules above are mine."
    assert read_mail(message(body)).own_text == body


def test_the_wrapped_end_of_a_long_quoted_line_is_no_answer():
    long_line = "Orders are due by Tuesday 1 December 2026, 20:00 Europe/Paris, please"
    body = f"{ORDERS}\n\n{ATTRIBUTION_LINE}\n> {long_line}\nreply in time.\n> Hand 11:\n"
    assert read_mail(message(body)).own_text == ORDERS


ATTRIBUTION_LINE = "On Tue, 1 Dec 2026 at 10:00, Rita (pbem) <gm@example.org> wrote:"


def test_a_players_own_from_and_date_lines_do_not_cut_the_orders_below():
    body = "From: Chloé\nDate: Tuesday evening\nHand 3: Baron on Bruno\nHand 7: Prince on myself"
    assert read_mail(message(body + "\n")).own_text == body


@pytest.mark.parametrize(
    "body",
    [
        # Words that open a header line in some language, written as a player writes them.
        "No: I meant the Baron.\nHand 3: Baron on Bruno\nTo: Bruno, sorry!",
        "Za: Hand 3 is mine\nHand 3: Baron on Bruno\nData: none",
        "Konu: my orders\nHand 3: Baron on Bruno\nHand 7: Prince on myself",
        "Od: Chloé\nHand 3: Baron on Bruno\nKam: to the Baron",
    ],
)
def test_a_players_lines_that_open_like_a_header_block_stay_theirs(body):
    assert read_mail(message(body + "\n")).own_text == body


def test_an_order_typed_under_the_device_footer_is_kept():
    body = "Hand 3: Baron on Bruno\nSent from my iPhone\n\nHand 7: Prince on myself"
    assert read_mail(message(body + "\n")).own_text == "Hand 3: Baron on Bruno\n\nHand 7: Prince on myself"


@pytest.mark.parametrize(
    "header",
    [
        "Pada tanggal Sel, 1 Des 2026 pukul 10.00 Rita <gm@example.org>\nmenulis:",
        "În mar., 1 dec. 2026 la 10:00, Rita <\ngm@example.org> a scris:",
        "Στις Τρί 1 Δεκ 2026 στις 10:00, ο/η Rita\n<gm@example.org> έγραψε:",
        "2026-12-01 10:00 GMT+01:00 Rita (pbem)\n<gm@example.org>:",
    ],
)
def test_an_order_right_above_a_wrapped_attribution_is_kept(header):
    # No blank line between: the order line must not be taken for the attribution's first line.
    body = f"Hand 3: Guard on Arthur, guess Prince\n{header}\n{quote(TURN_MAIL)}\n"
    assert read_mail(message(body)).own_text == "Hand 3: Guard on Arthur, guess Prince"
